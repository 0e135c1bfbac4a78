package io.github.routingkit.audit;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The stamp a producer interceptor puts on every message, as one header (Kafka) or property
 * (Pulsar) named {@value #HEADER}, and the per-key sequencer that numbers them.
 *
 * <p>Stamp value (ASCII/UTF-8): {@code seq,producedAtMillis,k|u,generation,~epoch,producerId}:
 * the per-key sequence (ASCII digits), the production time in epoch ms (ASCII digits, a leading
 * {@code -} allowed), {@code k} if sent with a key and {@code u} if not, the routing generation
 * (empty when none; a generation containing a comma is left out), the producer instance's
 * <b>epoch</b> ({@code ~} and 1 to 16 lower-case hex digits: 48 random bits drawn when the
 * interceptor is created) and the producer id (the rest of the value, may contain anything).
 * The epoch tells two instances with the same configured producer id apart: a restarted producer
 * numbers its keys from 1 again, and without the epoch its first messages would look like
 * messages sent before the ones of the instance it replaced. Stamps without an epoch (written by
 * earlier versions: {@code seq,producedAtMillis,k|u,generation,producerId}) are still read, with
 * no epoch; an earlier reader of a new stamp takes {@code ~epoch,producerId} as the producer id,
 * which also tells the instances apart.
 *
 * <p>The <b>logical key</b> of a message is the value of its {@value #LOGICAL_KEY} header /
 * property when present (the application sets it on a send path that has no key, so such
 * messages can still be audited), else its key. Messages with neither carry no key whose order
 * could break: they are stamped but not recorded.
 *
 * <p>Sequences: a producer keeps {@value #STRIPES} counters and numbers each message with the
 * counter of its logical key's stripe (FNV-1a of the key's UTF-8 bytes). One key's sequences
 * therefore strictly increase in send order but are not contiguous (gaps are not losses), and a
 * producer's sequencer takes 32 KiB whatever the number of keys.
 */
public final class AuditStamp {
  /** The header / property carrying the stamp. */
  public static final String HEADER = "rk-audit";
  /** The header / property an application sets to give a keyless message its logical key. */
  public static final String LOGICAL_KEY = "rk-audit-key";
  /** The header / property read for the routing generation, as in {@code routing.version.header}. */
  public static final String VERSION_HEADER = "routing-version";
  /** Counters per producer. */
  public static final int STRIPES = 4096;

  private AuditStamp() {}

  /** A decoded stamp. */
  static final class Stamp {
    private final long sequence;
    private final long producedAtMillis;
    private final boolean keyed;
    private final String generation;
    private final String producer;
    private final String epoch;

    Stamp(long sequence, long producedAtMillis, boolean keyed, String generation,
        String producer, String epoch) {
      this.sequence = sequence;
      this.producedAtMillis = producedAtMillis;
      this.keyed = keyed;
      this.generation = generation;
      this.producer = producer;
      this.epoch = epoch;
    }

    /** The producer instance's epoch (hex), or null for a stamp without one. */
    String epoch() {
      return epoch;
    }

    long sequence() {
      return sequence;
    }

    long producedAtMillis() {
      return producedAtMillis;
    }

    boolean keyed() {
      return keyed;
    }

    String generation() {
      return generation;
    }

    String producer() {
      return producer;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Stamp)) {
        return false;
      }
      Stamp x = (Stamp) o;
      return sequence == x.sequence && producedAtMillis == x.producedAtMillis && keyed == x.keyed
          && java.util.Objects.equals(generation, x.generation) && producer.equals(x.producer)
          && java.util.Objects.equals(epoch, x.epoch);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(sequence, producedAtMillis, keyed, generation, producer,
          epoch);
    }

    @Override
    public String toString() {
      return sequence + "," + producedAtMillis + "," + (keyed ? 'k' : 'u') + ","
          + (generation == null ? "" : generation) + "," + (epoch == null ? "" : "~" + epoch + ",")
          + producer;
    }
  }

  /** Numbers messages per logical key (thread-safe, lock-free, 32 KiB). */
  public static final class Sequencer {
    private final AtomicLongArray counters = new AtomicLongArray(STRIPES);

    /** Returns the next sequence for a key whose {@link #hash} is {@code keyHash}. */
    public long next(int keyHash) {
      return counters.incrementAndGet(keyHash & (STRIPES - 1));
    }
  }

  /** FNV-1a 32 of the key's UTF-8 bytes, computed without encoding (0 for null). */
  public static int hash(CharSequence key) {
    if (key == null) {
      return 0;
    }
    int h = 0x811c9dc5;
    int n = key.length();
    for (int i = 0; i < n; i++) {
      int c = key.charAt(i);
      if (c < 0x80) {
        h = (h ^ c) * 0x01000193;
      } else if (c < 0x800) {
        h = (h ^ (0xc0 | (c >> 6))) * 0x01000193;
        h = (h ^ (0x80 | (c & 0x3f))) * 0x01000193;
      } else if (Character.isHighSurrogate((char) c) && i + 1 < n
          && Character.isLowSurrogate(key.charAt(i + 1))) {
        int cp = Character.toCodePoint((char) c, key.charAt(++i));
        h = (h ^ (0xf0 | (cp >> 18))) * 0x01000193;
        h = (h ^ (0x80 | ((cp >> 12) & 0x3f))) * 0x01000193;
        h = (h ^ (0x80 | ((cp >> 6) & 0x3f))) * 0x01000193;
        h = (h ^ (0x80 | (cp & 0x3f))) * 0x01000193;
      } else {
        if (Character.isSurrogate((char) c)) {
          c = '?'; // an unpaired surrogate: String.getBytes(UTF_8) writes '?'
          h = (h ^ c) * 0x01000193;
          continue;
        }
        h = (h ^ (0xe0 | (c >> 12))) * 0x01000193;
        h = (h ^ (0x80 | ((c >> 6) & 0x3f))) * 0x01000193;
        h = (h ^ (0x80 | (c & 0x3f))) * 0x01000193;
      }
    }
    return h;
  }

  /** FNV-1a 32 of bytes (0 for null); equals {@link #hash(CharSequence)} of their UTF-8 text. */
  public static int hash(byte[] key) {
    if (key == null) {
      return 0;
    }
    int h = 0x811c9dc5;
    for (byte b : key) {
      h = (h ^ (b & 0xff)) * 0x01000193;
    }
    return h;
  }

  /** Hash of a client key object: String and byte[] as above, anything else by its text. */
  static int hashKey(Object key) {
    if (key instanceof byte[]) {
      return hash((byte[]) key);
    }
    if (key instanceof CharSequence) {
      return hash((CharSequence) key);
    }
    return key == null ? 0 : hash(key.toString());
  }

  /**
   * The text of a client key object: a String as is, a byte[] as UTF-8 text when it is valid
   * UTF-8 and otherwise {@code base64:} and its Base64, anything else by {@code toString()}.
   */
  static String keyText(Object key) {
    if (key == null) {
      return null;
    }
    if (key instanceof byte[]) {
      return bytesText((byte[]) key);
    }
    return key.toString();
  }

  static String bytesText(byte[] b) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      return "base64:" + Base64.getEncoder().encodeToString(b);
    }
  }

  /**
   * Returns a new producer instance epoch: 48 random bits as 12 lower-case hex digits.
   */
  static String newEpoch() {
    long bits = new java.security.SecureRandom().nextLong() & 0xffff_ffff_ffffL;
    String hex = Long.toHexString(bits);
    return "0".repeat(12 - hex.length()) + hex;
  }

  /**
   * Returns the UTF-8 bytes of the stamp's last part, {@code ~epoch,producerId}, which
   * {@link #encode} puts after the generation.
   */
  static byte[] producerField(String producerId, String epoch) {
    return ("~" + epoch + "," + producerId).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Encodes a stamp; {@code producerUtf8} is the UTF-8 of the stamp's last part: the producer
   * id, or {@link #producerField} of the id and an epoch.
   */
  static byte[] encode(long seq, long producedAt, boolean keyed, String generation,
      byte[] producerUtf8) {
    byte[] gen = generation == null || generation.indexOf(',') >= 0
        ? EMPTY : generation.getBytes(StandardCharsets.UTF_8);
    int len = digits(seq) + 1 + digits(producedAt) + 1 + 1 + 1 + gen.length + 1
        + producerUtf8.length;
    byte[] out = new byte[len];
    int i = writeLong(out, 0, seq);
    out[i++] = ',';
    i = writeLong(out, i, producedAt);
    out[i++] = ',';
    out[i++] = (byte) (keyed ? 'k' : 'u');
    out[i++] = ',';
    System.arraycopy(gen, 0, out, i, gen.length);
    i += gen.length;
    out[i++] = ',';
    System.arraycopy(producerUtf8, 0, out, i, producerUtf8.length);
    return out;
  }

  private static final byte[] EMPTY = new byte[0];

  private static int digits(long v) {
    if (v < 0) {
      return 1 + digits(v == Long.MIN_VALUE ? Long.MAX_VALUE : -v);
    }
    int d = 1;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }

  private static int writeLong(byte[] out, int at, long v) {
    String s = null;
    if (v < 0) {
      s = Long.toString(v);
      for (int j = 0; j < s.length(); j++) {
        out[at + j] = (byte) s.charAt(j);
      }
      return at + s.length();
    }
    int d = digits(v);
    for (int j = at + d - 1; j >= at; j--) {
      out[j] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    return at + d;
  }

  /** Decodes a stamp, or returns null if it is not one. */
  static Stamp decode(byte[] value) {
    return value == null ? null : decode(new String(value, StandardCharsets.UTF_8));
  }

  /** Decodes a stamp, or returns null if it is not one. */
  static Stamp decode(String v) {
    if (v == null) {
      return null;
    }
    int c1 = v.indexOf(',');
    int c2 = c1 < 0 ? -1 : v.indexOf(',', c1 + 1);
    int c3 = c2 < 0 ? -1 : v.indexOf(',', c2 + 1);
    int c4 = c3 < 0 ? -1 : v.indexOf(',', c3 + 1);
    if (c4 < 0 || c3 != c2 + 2) {
      return null;
    }
    long seq = parseDigits(v, 0, c1, false);
    long ts = parseDigits(v, c1 + 1, c2, true);
    char flag = v.charAt(c2 + 1);
    if (seq < 0 || ts == Long.MIN_VALUE || (flag != 'k' && flag != 'u')) {
      return null;
    }
    String gen = c4 == c3 + 1 ? null : v.substring(c3 + 1, c4);
    String rest = v.substring(c4 + 1);
    String epoch = null;
    int comma = rest.indexOf(',');
    if (rest.startsWith("~") && comma >= 2 && comma <= 17 && isLowerHex(rest, 1, comma)) {
      epoch = rest.substring(1, comma);
      rest = rest.substring(comma + 1);
    }
    return new Stamp(seq, ts, flag == 'k', gen, rest, epoch);
  }

  private static boolean isLowerHex(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      char ch = s.charAt(i);
      if (!(ch >= '0' && ch <= '9') && !(ch >= 'a' && ch <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses {@code s[from, to)} as a decimal integer of ASCII digits only (no {@code +}, no other
   * script's digits; a leading {@code -} only when {@code signed}).
   *
   * @return the value; -1 for a bad unsigned number, {@link Long#MIN_VALUE} for a bad signed one
   *     (neither is a value this method returns otherwise for that mode)
   */
  static long parseDigits(CharSequence s, int from, int to, boolean signed) {
    long bad = signed ? Long.MIN_VALUE : -1;
    boolean negative = signed && to > from && s.charAt(from) == '-';
    int i = negative ? from + 1 : from;
    if (i >= to) {
      return bad;
    }
    long value = 0;
    for (; i < to; i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        return bad;
      }
      int d = ch - '0';
      if (value > (Long.MAX_VALUE - d) / 10) {
        return bad;
      }
      value = value * 10 + d;
    }
    return negative ? -value : value;
  }
}
