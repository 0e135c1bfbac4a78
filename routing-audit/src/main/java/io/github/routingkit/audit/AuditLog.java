package io.github.routingkit.audit;

/**
 * The audit log's line format: one JSON object per line (JSON Lines), one line per received
 * message, UTF-8, append-only.
 *
 * <pre>{@code
 * {"k":"order-7","p":"checkout-1","s":12,"t":1764583200000,"g":"v2","ky":true,"tp":"orders","pt":3,"c":"consumer-a","st":"Key_Shared","rd":0,"o":"12:4:-1","ot":1764583200004}
 * }</pre>
 *
 * <table>
 *   <caption>Fields (see {@link AuditRecord})</caption>
 *   <tr><th>name</th><th>type</th><th>required</th><th>meaning</th></tr>
 *   <tr><td>k</td><td>string</td><td>yes</td><td>logical key</td></tr>
 *   <tr><td>p</td><td>string</td><td>yes</td><td>producer id</td></tr>
 *   <tr><td>pe</td><td>string</td><td>no</td><td>producer instance epoch (hex)</td></tr>
 *   <tr><td>s</td><td>integer &ge; 0</td><td>yes</td><td>per-key sequence</td></tr>
 *   <tr><td>t</td><td>integer</td><td>no (0)</td><td>production time, epoch ms</td></tr>
 *   <tr><td>g</td><td>string</td><td>no</td><td>routing generation</td></tr>
 *   <tr><td>ky</td><td>boolean</td><td>no (true)</td><td>sent with a key</td></tr>
 *   <tr><td>tp</td><td>string</td><td>yes</td><td>topic</td></tr>
 *   <tr><td>pt</td><td>integer &ge; -1</td><td>yes</td><td>partition (-1: not partitioned)</td></tr>
 *   <tr><td>c</td><td>string</td><td>yes</td><td>consumer instance</td></tr>
 *   <tr><td>st</td><td>string</td><td>yes</td><td>subscription type</td></tr>
 *   <tr><td>rd</td><td>integer &ge; -1</td><td>no (-1)</td><td>redelivery count (-1: unknown)</td></tr>
 *   <tr><td>o</td><td>string</td><td>no</td><td>position: offset, or ledger:entry:batch</td></tr>
 *   <tr><td>ot</td><td>integer</td><td>no (0)</td><td>observation time, epoch ms</td></tr>
 * </table>
 *
 * <p>Unknown fields are ignored (later versions may add some); a field given twice, a missing
 * required field, a value of the wrong type or out of range, or anything that is not one flat
 * JSON object makes the line bad ({@link AuditLogException}). Thread-safe (stateless).
 */
public final class AuditLog {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  /** The known field names, in the order of their bit in the duplicate check. */
  private static final java.util.List<String> FIELD_ORDER = java.util.List.of("k", "p", "s", "t",
      "g", "ky", "tp", "pt", "c", "st", "rd", "o", "ot", "pe");
  private static final String FIELDS = "," + String.join(",", FIELD_ORDER) + ",";

  private AuditLog() {}

  /** The value of an ASCII hex digit, or -1 (Unicode digits are not hex digits here). */
  static int hexDigit(char ch) {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return -1;
  }

  /**
   * Appends the line of a record (without the line terminator) to {@code out}.
   *
   * @param record the record
   * @param out where to append
   * @return {@code out}
   */
  public static StringBuilder appendLine(AuditRecord record, StringBuilder out) {
    out.append("{\"k\":");
    string(record.key(), out);
    out.append(",\"p\":");
    string(record.producer(), out);
    if (record.producerEpoch() != null) {
      out.append(",\"pe\":");
      string(record.producerEpoch(), out);
    }
    out.append(",\"s\":").append(record.sequence());
    out.append(",\"t\":").append(record.producedAtMillis());
    if (record.generation() != null) {
      out.append(",\"g\":");
      string(record.generation(), out);
    }
    out.append(",\"ky\":").append(record.keyed());
    out.append(",\"tp\":");
    string(record.topic(), out);
    out.append(",\"pt\":").append(record.partition());
    out.append(",\"c\":");
    string(record.consumer(), out);
    out.append(",\"st\":");
    string(record.subscription(), out);
    out.append(",\"rd\":").append(record.redeliveryCount());
    if (record.position() != null) {
      out.append(",\"o\":");
      string(record.position(), out);
    }
    out.append(",\"ot\":").append(record.observedAtMillis()).append('}');
    return out;
  }

  /** Returns the line of a record, without the line terminator. */
  public static String line(AuditRecord record) {
    return appendLine(record, new StringBuilder(160)).toString();
  }

  private static void string(String s, StringBuilder out) {
    appendJsonString(s, out);
  }

  /**
   * Appends {@code s} as a JSON string (in double quotes) to {@code out}: {@code "} and {@code \\}
   * escaped, {@code \n}, {@code \r} and {@code \t} as such, every other character below U+0020
   * and U+2028 / U+2029 (line and paragraph separators, which JavaScript and some line readers take
   * for line ends) as {@code \}{@code uXXXX}; every other character as it is. The one JSON string
   * writer of RoutingKit's outputs (the audit log, the test kit's JSON reports, the {@code routing}
   * command's {@code --format json}), so they all escape alike.
   *
   * @param s the text
   * @param out where to append
   * @return {@code out}
   * @throws NullPointerException if an argument is null
   */
  public static StringBuilder appendJsonString(CharSequence s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        out.append("\\\"");
      } else if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
        out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf])
            .append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
      } else {
        out.append(c);
      }
    }
    return out.append('"');
  }

  /**
   * Parses one line.
   *
   * @param line the line, without its terminator
   * @return the record
   * @throws AuditLogException if the line is not a valid audit line (the message says why)
   */
  public static AuditRecord parse(String line) {
    return new Parser(line, null).record();
  }

  /**
   * Parses one line, taking the producer, epoch, generation, topic, consumer and subscription
   * texts from {@code interner} when it already holds an equal one: a log names few of them, so
   * records kept in memory then share them.
   *
   * @param line the line, without its terminator
   * @param interner the texts seen so far (bounded by the caller), or null
   * @return the record
   * @throws AuditLogException if the line is not a valid audit line (the message says why)
   */
  static AuditRecord parse(String line, Interner interner) {
    return new Parser(line, interner).record();
  }

  /** Canonical instances of repeated texts, at most {@code max} of them. Not thread-safe. */
  static final class Interner {
    private final java.util.HashMap<String, String> texts = new java.util.HashMap<>();
    private final int max;

    Interner(int max) {
      this.max = max;
    }

    String of(String s) {
      if (s == null) {
        return null;
      }
      String known = texts.get(s);
      if (known != null) {
        return known;
      }
      if (texts.size() < max) {
        texts.put(s, s);
      }
      return s;
    }
  }

  /**
   * Returns the line of a finding (one flat JSON object, no line terminator), as the continuous
   * audit writes pairs to its output topic:
   * {@code {"cause":"KEYLESS_SEND","layer":"write side","evidence":"...","later":"<line>","earlier":"<line>"}},
   * where {@code later} and {@code earlier} hold the two records' own lines as JSON strings.
   *
   * @param finding the finding
   * @return its line
   */
  public static String findingLine(AuditFinding finding) {
    StringBuilder b = new StringBuilder(640).append("{\"cause\":");
    string(finding.cause().name(), b);
    b.append(",\"layer\":");
    string(finding.cause().layer(), b);
    b.append(",\"evidence\":");
    string(finding.evidence(), b);
    b.append(",\"later\":");
    string(line(finding.sentLater()), b);
    b.append(",\"earlier\":");
    string(line(finding.sentEarlier()), b);
    return b.append('}').toString();
  }

  /**
   * Parses a {@link #findingLine}.
   *
   * @param line the line
   * @return the finding (its evidence is recomputed from the records)
   * @throws AuditLogException if it is not a finding line
   */
  public static AuditFinding parseFinding(String line) {
    java.util.Map<String, String> fields = new Parser(line, null).strings();
    String cause = fields.get("cause");
    String later = fields.get("later");
    String earlier = fields.get("earlier");
    if (cause == null || later == null || earlier == null) {
      throw new AuditLogException("a finding needs the fields cause, later and earlier");
    }
    AuditCause c;
    try {
      c = AuditCause.valueOf(cause);
    } catch (IllegalArgumentException e) {
      throw new AuditLogException("unknown cause " + SafeText.of(cause, 40));
    }
    return new AuditFinding(c, parse(later), parse(earlier));
  }

  /** A strict parser of one flat JSON object whose values are strings, integers or booleans. */
  private static final class Parser {
    private final String s;
    private int i;
    private String k;
    private String p;
    private String pe;
    private Long seq;
    private long t;
    private String g;
    private Boolean ky;
    private String tp;
    private Long pt;
    private String c;
    private String st;
    private Long rd;
    private String o;
    private long ot;
    private int seen; // bit per known field, for duplicates

    private final Interner interner;

    Parser(String s, Interner interner) {
      this.s = s;
      this.interner = interner;
    }

    AuditRecord record() {
      object(this::field);
      require(k, "k");
      require(p, "p");
      require(seq, "s");
      require(tp, "tp");
      require(pt, "pt");
      require(c, "c");
      require(st, "st");
      if (seq < 0) {
        throw bad("field s (sequence) must be >= 0, was " + seq);
      }
      if (pt < -1 || pt > Integer.MAX_VALUE) {
        throw bad("field pt (partition) must be in [-1, 2^31), was " + pt);
      }
      long redelivery = rd == null ? -1 : rd;
      if (redelivery < -1 || redelivery > Integer.MAX_VALUE) {
        throw bad("field rd (redelivery count) must be in [-1, 2^31), was " + redelivery);
      }
      return new AuditRecord(k, p, pe, seq, t, g, ky == null || ky, tp, (int) (long) pt, c, st,
          (int) redelivery, o, ot);
    }

    private void field(String name) {
      int bit = FIELDS.indexOf("," + name + ",") < 0 ? 0
          : 1 << FIELD_ORDER.indexOf(name);
      if (bit != 0) {
        if ((seen & bit) != 0) {
          throw bad("field " + name + " given twice");
        }
        seen |= bit;
      }
      if (name.equals("k")) {
        k = strValue(name);
      } else if (name.equals("p")) {
        p = common(strValue(name));
      } else if (name.equals("s")) {
        seq = num(name);
      } else if (name.equals("t")) {
        t = num(name);
      } else if (name.equals("g")) {
        g = common(nullableStr(name));
      } else if (name.equals("ky")) {
        ky = bool(name);
      } else if (name.equals("tp")) {
        tp = common(strValue(name));
      } else if (name.equals("pt")) {
        pt = num(name);
      } else if (name.equals("c")) {
        c = common(strValue(name));
      } else if (name.equals("st")) {
        st = common(strValue(name));
      } else if (name.equals("rd")) {
        rd = num(name);
      } else if (name.equals("o")) {
        o = nullableStr(name);
      } else if (name.equals("ot")) {
        ot = num(name);
      } else if (name.equals("pe")) {
        pe = common(nullableStr(name));
      } else {
        skipValue(name);
      }
    }

    /** Parses a flat object of string fields (a finding line); a field given twice is bad. */
    java.util.Map<String, String> strings() {
      java.util.Map<String, String> out = new java.util.HashMap<>();
      object(name -> {
        if (out.put(name, strValue("value")) != null) {
          throw bad("field given twice");
        }
      });
      return out;
    }

    /** Reads one flat object, the whole line, handing each field's name to {@code field}. */
    private void object(java.util.function.Consumer<String> field) {
      ws();
      expect('{');
      ws();
      if (peek() == '}') {
        i++;
      } else {
        while (true) {
          ws();
          String name = str();
          ws();
          expect(':');
          ws();
          field.accept(name);
          ws();
          char ch = next();
          if (ch == '}') {
            break;
          }
          if (ch != ',') {
            throw bad("expected ',' or '}' at column " + i);
          }
        }
      }
      ws();
      if (i != s.length()) {
        throw bad("text after the JSON object at column " + (i + 1));
      }
    }

    private String common(String text) {
      return interner == null ? text : interner.of(text);
    }

    private void skipValue(String name) {
      char ch = peek();
      if (ch == '"') {
        str();
      } else if (ch == 't' || ch == 'f') {
        bool(name);
      } else if (ch == 'n') {
        literal("null");
      } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        // an unknown number may be fractional or huge: skip its characters
        while (i < s.length() && "+-.eE0123456789".indexOf(s.charAt(i)) >= 0) {
          i++;
        }
      } else {
        throw bad("field " + name + ": only strings, numbers, booleans and null are allowed");
      }
    }

    private String strValue(String name) {
      if (peek() != '"') {
        throw bad("field " + name + " must be a string");
      }
      return str();
    }

    private String nullableStr(String name) {
      if (peek() == 'n') {
        literal("null");
        return null;
      }
      return strValue(name);
    }

    private Boolean bool(String name) {
      if (s.startsWith("true", i)) {
        i += 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("false", i)) {
        i += 5;
        return Boolean.FALSE;
      }
      throw bad("field " + name + " must be true or false");
    }

    private void literal(String lit) {
      if (!s.startsWith(lit, i)) {
        throw bad("expected " + lit + " at column " + (i + 1));
      }
      i += lit.length();
    }

    private long num(String name) {
      int start = i;
      boolean negative = false;
      if (peek() == '-') {
        negative = true;
        i++;
      }
      long value = 0; // accumulated negative, so Long.MIN_VALUE is in range
      int digits = 0;
      while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        int d = s.charAt(i) - '0';
        if (value < (Long.MIN_VALUE + d) / 10) {
          throw bad("field " + name + ": integer out of range");
        }
        value = value * 10 - d;
        i++;
        digits++;
      }
      if (!negative && value == Long.MIN_VALUE) {
        throw bad("field " + name + ": integer out of range");
      }
      if (digits == 0 || (i < s.length() && ".eE".indexOf(s.charAt(i)) >= 0)) {
        i = start;
        throw bad("field " + name + " must be an integer");
      }
      return negative ? value : -value;
    }

    private String str() {
      expect('"');
      StringBuilder b = null;
      int start = i;
      while (true) {
        if (i >= s.length()) {
          throw bad("unterminated string");
        }
        char ch = s.charAt(i);
        if (ch == '"') {
          String out = b == null ? s.substring(start, i) : b.append(s, start, i).toString();
          i++;
          return out;
        }
        if (ch < 0x20) {
          throw bad("control character in a string at column " + (i + 1));
        }
        if (ch == '\\') {
          if (b == null) {
            b = new StringBuilder();
          }
          b.append(s, start, i);
          i++;
          if (i >= s.length()) {
            throw bad("unterminated escape");
          }
          char e = s.charAt(i++);
          if (e == '"' || e == '\\' || e == '/') {
            b.append(e);
          } else if (e == 'b') {
            b.append('\b');
          } else if (e == 'f') {
            b.append('\f');
          } else if (e == 'n') {
            b.append('\n');
          } else if (e == 'r') {
            b.append('\r');
          } else if (e == 't') {
            b.append('\t');
          } else if (e == 'u') {
            if (i + 4 > s.length()) {
              throw bad("truncated \\u escape");
            }
            int v = 0;
            for (int j = 0; j < 4; j++) {
              int d = hexDigit(s.charAt(i + j));
              if (d < 0) {
                throw bad("bad \\u escape at column " + (i + 1));
              }
              v = v * 16 + d;
            }
            b.append((char) v);
            i += 4;
          } else {
            throw bad("bad escape at column " + i);
          }
          start = i;
        } else {
          i++;
        }
      }
    }

    private void ws() {
      while (i < s.length()) {
        char ch = s.charAt(i);
        if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n') {
          return;
        }
        i++;
      }
    }

    private char peek() {
      if (i >= s.length()) {
        throw bad("unexpected end of line");
      }
      return s.charAt(i);
    }

    private char next() {
      char ch = peek();
      i++;
      return ch;
    }

    private void expect(char ch) {
      if (i >= s.length() || s.charAt(i) != ch) {
        throw bad("expected '" + ch + "' at column " + (i + 1));
      }
      i++;
    }

    private void require(Object value, String name) {
      if (value == null) {
        throw bad("missing field " + name);
      }
    }

    private AuditLogException bad(String why) {
      return new AuditLogException(why);
    }
  }
}
