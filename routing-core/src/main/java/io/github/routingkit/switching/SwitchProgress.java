package io.github.routingkit.switching;

/**
 * The progress claim a group publishes for one partition: which steps of a plan the partition
 * has passed, i.e. for which steps every record routed to it before the step was handed to
 * business code. As text, for a Kafka commit's {@code OffsetAndMetadata} metadata or a Pulsar
 * claim message: {@code rk-switch/1 <generation> <steps>}, the steps as a lower-case hex bit set
 * (bit {@code i} for step index {@code i}). At most 12 + 128 + 16 characters, far below Kafka's
 * default {@code offset.metadata.max.bytes} (4096).
 *
 * <p>Stateless and thread-safe. {@link #decode} never throws: text of another generation, another
 * format or garbage decodes to no steps.
 */
public final class SwitchProgress {
  /** The prefix of every claim. */
  public static final String PREFIX = "rk-switch/1 ";

  private SwitchProgress() {}

  /**
   * Encodes a claim.
   *
   * @param generation the plan's generation
   * @param passedSteps the passed steps as a bit set, bit {@code i} for step index {@code i}
   * @return the claim text, or the empty string when no step was passed
   * @throws IllegalArgumentException if the generation breaks {@link SwitchMarker#GENERATION_RULE}
   */
  public static String encode(String generation, long passedSteps) {
    if (!SwitchMarker.validGeneration(generation)) {
      throw new IllegalArgumentException("generation was '" + generation + "', "
          + SwitchMarker.GENERATION_RULE);
    }
    return passedSteps == 0 ? "" : PREFIX + generation + ' ' + Long.toHexString(passedSteps);
  }

  /**
   * Decodes the steps a claim says were passed, for {@code generation}.
   *
   * @return the passed steps as a bit set; 0 for null, empty, foreign or malformed text
   */
  public static long decode(String text, String generation) {
    if (text == null || !text.startsWith(PREFIX) || generation == null) {
      return 0;
    }
    int end = PREFIX.length() + generation.length();
    if (text.length() <= end + 1 || text.length() > end + 17 || text.charAt(end) != ' '
        || !text.regionMatches(PREFIX.length(), generation, 0, generation.length())) {
      return 0;
    }
    long v = 0;
    for (int i = end + 1; i < text.length(); i++) {
      int d = Character.digit(text.charAt(i), 16);
      if (d < 0 || Character.isUpperCase(text.charAt(i))) {
        return 0;
      }
      v = v << 4 | d;
    }
    return v;
  }
}
