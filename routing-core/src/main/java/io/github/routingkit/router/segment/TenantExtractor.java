package io.github.routingkit.router.segment;

import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.internal.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;

/**
 * Reads a key's tenant and finds its segment: the bytes before the first separator (compared a
 * word at a time, allocation-free), or group 1 of a regex found in the key's UTF-8 text (decodes,
 * and counts character reads so that a catastrophically backtracking regex fails the message
 * instead of hanging the sending thread). Immutable, thread-safe.
 */
final class TenantExtractor {
  private final SegmentDefinition definition;

  TenantExtractor(SegmentDefinition definition) {
    this.definition = definition;
  }

  /** Returns the index of the key's segment in the definition, or -1 (shared range). */
  int segmentIndex(byte[] key, int offset, int length) {
    SegmentDefinition d = definition;
    if (d.pattern != null) {
      String text = new String(key, offset, length, StandardCharsets.UTF_8);
      Matcher m = d.pattern.matcher(new BudgetedText(text));
      boolean found;
      try {
        found = m.find();
      } catch (BudgetedText.Exhausted e) {
        throw new RoutingConfigException(SegmentDefinition.REGEX, d.regex, "needed more than "
            + BudgetedText.budget(text) + " steps on a key of " + text.length() + " chars"
            + " (catastrophic backtracking); use a regex without nested or ambiguous repetition");
      }
      if (!found || m.group(1) == null) {
        return -1;
      }
      String tenant = m.group(1);
      for (int i = 0; i < d.names.length; i++) {
        if (d.names[i].equals(tenant)) {
          return i;
        }
      }
      return -1;
    }
    int end = Bytes.indexOf(key, offset, length, d.separatorBytes);
    if (end < 0) {
      return -1;
    }
    // one word compare per name; bytes past the 8th are compared only for a long name that matches
    long w = Bytes.word(key, offset, end);
    int len = end - offset;
    for (int i = 0; i < d.nameBytes.length; i++) {
      byte[] name = d.nameBytes[i];
      if (d.nameWord[i] == w && name.length == len
          && (len <= 8 || Arrays.equals(name, 8, len, key, offset + 8, end))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The key text seen by the regex, counting character reads so that a catastrophically
   * backtracking regex fails the message instead of hanging the sending thread.
   */
  private static final class BudgetedText implements CharSequence {
    private final String text;
    private long left;

    BudgetedText(String text) {
      this.text = text;
      this.left = budget(text);
    }

    static long budget(String text) {
      return 1_000_000L + 64L * text.length();
    }

    @Override
    public char charAt(int index) {
      if (--left < 0) {
        throw new Exhausted();
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.substring(start, end);
    }

    @Override
    public String toString() {
      return text;
    }

    static final class Exhausted extends RuntimeException {
      private static final long serialVersionUID = 1L;

      Exhausted() {
        super(null, null, false, false);
      }
    }
  }
}
