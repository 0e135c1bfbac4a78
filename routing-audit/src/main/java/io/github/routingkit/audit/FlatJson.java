package io.github.routingkit.audit;

import java.util.function.Consumer;

/**
 * The JSON of the audit log's lines: a strict reader of one flat JSON object whose values are
 * strings, integers, booleans or null (the whole line; nesting, fractions and anything after the
 * object make it bad), and the one JSON string writer ({@link AuditLog#appendJsonString}). The
 * field names and what they mean are {@link AuditLog}'s. A reader reads one line; not
 * thread-safe.
 */
final class FlatJson {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final String s;
  private int i;

  FlatJson(String line) {
    this.s = line;
  }

  /** Appends {@code s} as a JSON string, escaped as {@link AuditLog#appendJsonString} says. */
  static StringBuilder appendString(CharSequence s, StringBuilder out) {
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

  /** Reads one flat object, the whole line, handing each field's name to {@code field}. */
  void object(Consumer<String> field) {
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

  /** Skips the value of a field the caller does not know (later versions may add some). */
  void skipValue(String name) {
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

  /** Reads a string value of field {@code name}. */
  String strValue(String name) {
    if (peek() != '"') {
      throw bad("field " + name + " must be a string");
    }
    return str();
  }

  /** Reads a string value or {@code null} of field {@code name}. */
  String nullableStr(String name) {
    if (peek() == 'n') {
      literal("null");
      return null;
    }
    return strValue(name);
  }

  /** Reads {@code true} or {@code false} of field {@code name}. */
  Boolean bool(String name) {
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

  /** Reads an integer in the {@code long} range of field {@code name}: no sign but {@code -}, no fraction, no exponent. */
  long num(String name) {
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

  /** The exception of a bad line, saying {@code why}. */
  AuditLogException bad(String why) {
    return new AuditLogException(why);
  }
}
