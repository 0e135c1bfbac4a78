package io.github.routingkit.router.hotkey;

import java.util.List;
import java.util.Objects;

/**
 * The checked configuration of a {@link HotKeyRouter}: configured keys, detection settings,
 * candidates and choice. Creating one checks every rule (and allocates no detector), so a
 * configuration can be validated without building a router.
 */
public final class HotKeyOptions {
  private final List<String> keys;
  private final boolean detect;
  private final double threshold;
  private final int memory;
  private final long window;
  private final int candidates;
  private final HotKeyRouter.Choice choice;
  private final int sample;

  /** The smallest detector memory cap: 16 counters. */
  public static final int MIN_MEMORY = 16 * HeavyHitterSketch.BYTES_PER_COUNTER + 6 * 16 + 64;

  /**
   * Checks the options.
   *
   * @param keys the configured hot keys, distinct, none null
   * @param detect whether online detection is on
   * @param threshold the share of recent messages from which a detected key is hot, in (0, 1]
   * @param memory the detector's memory cap in bytes: with detection in [{@value #MIN_MEMORY},
   *     {@value HotKeyRouter#MAX_MEMORY}]
   * @param window messages after which detection counts halve, at least {@code 200 * sample /
   *     threshold} with detection
   * @param candidates candidate partitions per hot key, at least 2 ({@link HotKeyRouter#ALL}: every
   *     partition)
   * @param choice how a hot key's message picks a candidate
   * @param sample detection counts one message in this many: a power of two in [1, {@value
   *     HotKeyRouter#MAX_SAMPLE}]
   * @throws IllegalArgumentException naming the option ({@code threshold}, {@code candidates},
   *     {@code sample}, {@code memory}, {@code window}), its value and the rule for a threshold
   *     outside (0, 1], fewer than 2 candidates, a sample that is not a power of two in [1, 1024],
   *     or (with detection) a memory cap below 16 counters or above 64 MiB or a window shorter
   *     than {@code 200 * sample / threshold}
   * @throws NullPointerException if {@code keys}, a key or {@code choice} is null
   */
  public HotKeyOptions(
      List<String> keys,
      boolean detect,
      double threshold,
      int memory,
      long window,
      int candidates,
      HotKeyRouter.Choice choice,
      int sample) {
    keys = List.copyOf(keys);
    Objects.requireNonNull(choice, "choice");
    if (!(threshold > 0 && threshold <= 1)) {
      throw invalid("threshold", threshold, "must be a share in (0, 1]");
    }
    if (candidates < 2) {
      throw invalid("candidates", candidates, "must be at least 2, or HotKeyRouter.ALL");
    }
    if (detect && memory > HotKeyRouter.MAX_MEMORY) {
      throw invalid("memory", memory, "must be at most " + HotKeyRouter.MAX_MEMORY
          + " bytes (64 MiB, about 1.6 million counters)");
    }
    if (detect && HeavyHitterSketch.capacityFor(memory) < 16) {
      throw invalid("memory", memory, "must be at least " + HeavyHitterSketch.footprint(16)
          + " bytes (16 counters)");
    }
    if (!HotKeyRouter.isValidSample(sample)) {
      throw invalid("sample", sample, HotKeyRouter.SAMPLE_RULE);
    }
    String windowRule = windowRule(threshold, sample, window);
    if (detect && windowRule != null) {
      throw invalid("window", window, windowRule);
    }
    this.keys = keys;
    this.detect = detect;
    this.threshold = threshold;
    this.memory = memory;
    this.window = window;
    this.candidates = candidates;
    this.choice = choice;
    this.sample = sample;
  }

  /**
   * Returns the rule {@code window} breaks for detection with {@code threshold} and
   * {@code sample} ({@code "must be at least 200 * sample / threshold = ... messages"}), or null
   * if it is long enough. Shared with the {@code routing.hotkey.window} check of the property
   * parser, so both say the same.
   */
  public static String windowRule(double threshold, int sample, long window) {
    // compared as longs when it fits: (double) window rounds above 2^53, so a window just below a
    // large bound would compare equal to it as a double
    double minWindow = HotKeyRouter.minWindow(threshold, sample);
    boolean fits = minWindow < 0x1p63;
    if (fits && window >= (long) minWindow) {
      return null;
    }
    return "must be at least "
        + (sample == 1 ? "200 / threshold = " : "200 * sample / threshold = ")
        + (fits ? String.valueOf((long) minWindow) : "2^63 or more") + " messages";
  }

  private static IllegalArgumentException invalid(String option, Object value, String rule) {
    return new IllegalArgumentException(option + " was " + value + ", " + rule);
  }

  /**
   * Returns the memory the detector of a router with these options may claim, in bytes (0 without
   * detection): at most {@link #memory()}. Allocated when the router first counts a message.
   */
  public int detectorMemoryBytes() {
    return detect ? HeavyHitterSketch.footprint(HeavyHitterSketch.capacityFor(memory)) : 0;
  }

  /** Returns the configured hot keys, distinct, none null. */
  public List<String> keys() {
    return keys;
  }

  /** Returns whether online detection is on. */
  public boolean detect() {
    return detect;
  }

  /** Returns the share of recent messages from which a detected key is hot, in (0, 1]. */
  public double threshold() {
    return threshold;
  }

  /**
   * Returns the detector's memory cap in bytes: with detection in [{@value #MIN_MEMORY},
   * {@value HotKeyRouter#MAX_MEMORY}].
   */
  public int memory() {
    return memory;
  }

  /**
   * Returns messages after which detection counts halve, at least {@code 200 * sample /
   * threshold} with detection.
   */
  public long window() {
    return window;
  }

  /**
   * Returns candidate partitions per hot key, at least 2 ({@link HotKeyRouter#ALL}: every
   * partition).
   */
  public int candidates() {
    return candidates;
  }

  /** Returns how a hot key's message picks a candidate. */
  public HotKeyRouter.Choice choice() {
    return choice;
  }

  /**
   * Returns detection counts one message in this many: a power of two in [1, {@value
   * HotKeyRouter#MAX_SAMPLE}].
   */
  public int sample() {
    return sample;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof HotKeyOptions)) {
      return false;
    }
    HotKeyOptions other = (HotKeyOptions) o;
    return Objects.equals(keys, other.keys)
        && detect == other.detect
        && Double.compare(threshold, other.threshold) == 0
        && memory == other.memory
        && window == other.window
        && candidates == other.candidates
        && Objects.equals(choice, other.choice)
        && sample == other.sample;
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Objects.hashCode(keys);
    h = 31 * h + Boolean.hashCode(detect);
    h = 31 * h + Double.hashCode(threshold);
    h = 31 * h + Integer.hashCode(memory);
    h = 31 * h + Long.hashCode(window);
    h = 31 * h + Integer.hashCode(candidates);
    h = 31 * h + Objects.hashCode(choice);
    h = 31 * h + Integer.hashCode(sample);
    return h;
  }

  @Override
  public String toString() {
    return "HotKeyOptions[keys=" + keys + ", detect=" + detect + ", threshold=" + threshold
        + ", memory=" + memory + ", window=" + window + ", candidates=" + candidates + ", choice="
        + choice + ", sample=" + sample + "]";
  }
}
