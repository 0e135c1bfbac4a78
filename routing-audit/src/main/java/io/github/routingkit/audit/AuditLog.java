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
  /** The known field names, in the order of their bit in the duplicate check. */
  private static final java.util.List<String> FIELD_ORDER = java.util.List.of("k", "p", "s", "t",
      "g", "ky", "tp", "pt", "c", "st", "rd", "o", "ot", "pe");
  private static final String FIELDS = "," + String.join(",", FIELD_ORDER) + ",";

  private AuditLog() {}

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
    return FlatJson.appendString(s, out);
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

  /** Reads one record line (or a finding line's strings): the fields, their types and ranges. */
  private static final class Parser {
    private final FlatJson json;
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
      this.json = new FlatJson(s);
      this.interner = interner;
    }

    AuditRecord record() {
      json.object(this::field);
      require(k, "k");
      require(p, "p");
      require(seq, "s");
      require(tp, "tp");
      require(pt, "pt");
      require(c, "c");
      require(st, "st");
      if (seq < 0) {
        throw json.bad("field s (sequence) must be >= 0, was " + seq);
      }
      if (pt < -1 || pt > Integer.MAX_VALUE) {
        throw json.bad("field pt (partition) must be in [-1, 2^31), was " + pt);
      }
      long redelivery = rd == null ? -1 : rd;
      if (redelivery < -1 || redelivery > Integer.MAX_VALUE) {
        throw json.bad("field rd (redelivery count) must be in [-1, 2^31), was " + redelivery);
      }
      return new AuditRecord(k, p, pe, seq, t, g, ky == null || ky, tp, (int) (long) pt, c, st,
          (int) redelivery, o, ot);
    }

    private void field(String name) {
      int bit = FIELDS.indexOf("," + name + ",") < 0 ? 0
          : 1 << FIELD_ORDER.indexOf(name);
      if (bit != 0) {
        if ((seen & bit) != 0) {
          throw json.bad("field " + name + " given twice");
        }
        seen |= bit;
      }
      if (name.equals("k")) {
        k = json.strValue(name);
      } else if (name.equals("p")) {
        p = common(json.strValue(name));
      } else if (name.equals("s")) {
        seq = json.num(name);
      } else if (name.equals("t")) {
        t = json.num(name);
      } else if (name.equals("g")) {
        g = common(json.nullableStr(name));
      } else if (name.equals("ky")) {
        ky = json.bool(name);
      } else if (name.equals("tp")) {
        tp = common(json.strValue(name));
      } else if (name.equals("pt")) {
        pt = json.num(name);
      } else if (name.equals("c")) {
        c = common(json.strValue(name));
      } else if (name.equals("st")) {
        st = common(json.strValue(name));
      } else if (name.equals("rd")) {
        rd = json.num(name);
      } else if (name.equals("o")) {
        o = json.nullableStr(name);
      } else if (name.equals("ot")) {
        ot = json.num(name);
      } else if (name.equals("pe")) {
        pe = common(json.nullableStr(name));
      } else {
        json.skipValue(name);
      }
    }

    /** Parses a flat object of string fields (a finding line); a field given twice is bad. */
    java.util.Map<String, String> strings() {
      java.util.Map<String, String> out = new java.util.HashMap<>();
      json.object(name -> {
        if (out.put(name, json.strValue("value")) != null) {
          throw json.bad("field given twice");
        }
      });
      return out;
    }

    private String common(String text) {
      return interner == null ? text : interner.of(text);
    }

    private void require(Object value, String name) {
      if (value == null) {
        throw json.bad("missing field " + name);
      }
    }
  }
}
