package io.github.routingkit.switching;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A switch marker as written into one partition at a router change: the rollout's generation,
 * the step, and the partition it was written to. The Kafka and Pulsar {@code SwitchMarkers}
 * helpers write these three fields as headers (message properties) and read them back through
 * {@link #parse(byte[], byte[], byte[])} / {@link #parse(String, String, String)}, which accept
 * only the exact form the helpers write and return null for anything else, never throwing.
 *
 * <p>Exact form: the generation is 1 to {@value #MAX_GENERATION_LENGTH} characters of
 * {@code [A-Za-z0-9._:-]}; step and partition are canonical decimals (no sign, no leading zero,
 * no whitespace), the step in [0, 2^31), the partition in [0, 2^20).
 *
 * <p>Immutable value: equal to a marker with the same three fields.
 */
public final class SwitchMarker {
  /** The longest generation accepted, in characters. */
  public static final int MAX_GENERATION_LENGTH = 128;
  /** The rule a generation must follow, as error messages state it. */
  public static final String GENERATION_RULE = "must be 1 to " + MAX_GENERATION_LENGTH
      + " characters of [A-Za-z0-9._:-]";
  private static final int MAX_PARTITIONS = 1 << 20;

  private final String generation;
  private final int step;
  private final int partition;

  /**
   * Creates a marker.
   *
   * @param generation the rollout's generation, in the exact form above
   * @param step the step number the marker ends, in [0, 2^31)
   * @param partition the partition the marker was written to, in [0, 2^20)
   * @throws IllegalArgumentException if {@code generation} breaks {@link #GENERATION_RULE}, the
   *     step is negative or the partition is outside [0, 2^20)
   */
  public SwitchMarker(String generation, int step, int partition) {
    if (!validGeneration(generation)) {
      throw new IllegalArgumentException("marker generation was '" + generation + "', "
          + GENERATION_RULE);
    }
    if (step < 0) {
      throw new IllegalArgumentException("marker step was " + step + ", must be >= 0");
    }
    if (partition < 0 || partition >= MAX_PARTITIONS) {
      throw new IllegalArgumentException("marker partition was " + partition
          + ", must be in [0, " + MAX_PARTITIONS + ")");
    }
    this.generation = generation;
    this.step = step;
    this.partition = partition;
  }

  /** The rollout's generation. */
  public String generation() {
    return generation;
  }

  /** The step number the marker ends, in [0, 2^31). */
  public int step() {
    return step;
  }

  /** The partition the marker was written to, in [0, 2^20). */
  public int partition() {
    return partition;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SwitchMarker)) {
      return false;
    }
    SwitchMarker other = (SwitchMarker) o;
    return generation.equals(other.generation) && step == other.step
        && partition == other.partition;
  }

  @Override
  public int hashCode() {
    return (generation.hashCode() * 31 + step) * 31 + partition;
  }

  @Override
  public String toString() {
    return "SwitchMarker[generation=" + generation + ", step=" + step + ", partition=" + partition
        + "]";
  }

  /** Whether {@code generation} is non-null and follows {@link #GENERATION_RULE}. */
  public static boolean validGeneration(CharSequence generation) {
    if (generation == null || generation.length() == 0
        || generation.length() > MAX_GENERATION_LENGTH) {
      return false;
    }
    for (int i = 0; i < generation.length(); i++) {
      char c = generation.charAt(i);
      boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
          || c == '.' || c == '_' || c == ':' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads a marker from its three fields as UTF-8 bytes (Kafka header values). Returns null if
   * any field is null or not in the exact form; never throws.
   */
  public static SwitchMarker parse(byte[] generation, byte[] step, byte[] partition) {
    if (generation == null || step == null || partition == null) {
      return null;
    }
    return parse(utf8(generation), utf8(step), utf8(partition));
  }

  /**
   * Reads a marker from its three fields as text (Pulsar message properties). Returns null if any
   * field is null or not in the exact form; never throws.
   */
  public static SwitchMarker parse(String generation, String step, String partition) {
    if (!validGeneration(generation)) {
      return null;
    }
    long s = canonical(step);
    long p = canonical(partition);
    if (s < 0 || s > Integer.MAX_VALUE || p < 0 || p >= MAX_PARTITIONS) {
      return null;
    }
    return new SwitchMarker(generation, (int) s, (int) p);
  }

  /** A canonical non-negative decimal of at most 10 digits, else -1. */
  private static long canonical(String text) {
    if (text == null || text.isEmpty() || text.length() > 10
        || text.length() > 1 && text.charAt(0) == '0') {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** Strict UTF-8, or null for malformed bytes. */
  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
