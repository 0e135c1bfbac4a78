package io.github.routingkit.hash;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testing.EdgeKeys;
import java.nio.CharBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shared text front-end ({@link Utf8}) feeds every scheme the bytes {@code getBytes(UTF_8)}
 * would give: for each scheme, the text form of a String, a StringBuilder and a CharBuffer equals
 * the byte form of the encoding, on both sides of the murmur schemes' encode-first threshold
 * ({@link Utf8#ENCODE_ABOVE}), for ASCII, mixed and non-ASCII-only text, every tail length, and
 * text whose first non-ASCII char comes in the tail or at the very end (the ASCII pass gives up
 * there).
 */
class Utf8FrontEndTest {

  @Test
  void everySchemeHashesTextLikeItsUtf8Bytes() {
    long seed = 20261201;
    Random r = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      int len = r.nextInt(4) == 0 ? r.nextInt(300) : r.nextInt(2 * Utf8.ENCODE_ABOVE);
      String s = switch (r.nextInt(4)) {
        case 0 -> ascii(r, len);
        case 1 -> ascii(r, len) + EdgeKeys.randomString(r, 1 + r.nextInt(2)); // non-ASCII at the end
        default -> EdgeKeys.randomString(r, len);
      };
      check(s, "seed " + seed + ", i " + i);
    }
    for (String s : EdgeKeys.strings()) {
      check(s, "edge key");
    }
  }

  @Test
  void asciiPathAgreesAtEveryLengthAroundTheThreshold() {
    StringBuilder sb = new StringBuilder();
    for (int n = 0; n <= Utf8.ENCODE_ABOVE + 9; n++) {
      check(sb.toString(), "ascii length " + n);
      check(sb + "\u00e9", "ascii length " + n + " + e-acute");
      check(sb + "\ud83d\ude00", "ascii length " + n + " + surrogate pair");
      check(sb + "\ud83d", "ascii length " + n + " + unpaired high surrogate");
      sb.append((char) ('a' + n % 26));
    }
  }

  private static String ascii(Random r, int len) {
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = (char) r.nextInt(0x80);
    }
    return new String(c);
  }

  private static void check(String s, String where) {
    byte[] utf8 = s.getBytes(UTF_8);
    String shown = where + ", key " + s.chars().mapToObj(Integer::toHexString).toList();
    for (HashScheme scheme : HashScheme.values()) {
      if (scheme == HashScheme.PULSAR_JAVA_STRING) {
        continue; // defined on UTF-16 text, tested in PulsarSchemesTest
      }
      long expected = scheme.hash64(utf8, 0, utf8.length);
      assertThat(scheme.hash64(s)).as("%s String, %s", scheme, shown).isEqualTo(expected);
      assertThat(scheme.hash64(new StringBuilder(s)))
          .as("%s StringBuilder, %s", scheme, shown).isEqualTo(expected);
      assertThat(scheme.hash64(CharBuffer.wrap(s)))
          .as("%s CharBuffer, %s", scheme, shown).isEqualTo(expected);
      assertThat(scheme.hash(s)).as("%s 32-bit, %s", scheme, shown)
          .isEqualTo(scheme.hash(utf8));
    }
  }
}
