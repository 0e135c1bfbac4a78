package io.github.routingkit.router.hotkey;

import io.github.routingkit.RoutingConfigException;
import java.util.List;
import java.util.Objects;

/**
 * The checked configuration of a {@link HotKeyRouter}: configured keys, detection settings,
 * candidates and choice. Creating one checks every rule (and allocates no detector), so a
 * configuration can be validated without building a router.
 *
 * @param keys the configured hot keys, distinct, none null
 * @param detect whether online detection is on
 * @param threshold the share of recent messages from which a detected key is hot, in (0, 1]
 * @param memory the detector's memory cap in bytes: with detection in
 *     [{@value #MIN_MEMORY}, {@value HotKeyRouter#MAX_MEMORY}]
 * @param window messages after which detection counts halve, at least
 *     {@code 200 * sample / threshold} with detection
 * @param candidates candidate partitions per hot key, at least 2 ({@link HotKeyRouter#ALL}: every
 *     partition)
 * @param choice how a hot key's message picks a candidate
 * @param sample detection counts one message in this many: a power of two in [1,
 *     {@value HotKeyRouter#MAX_SAMPLE}]
 */
public record HotKeyOptions(List<String> keys, boolean detect, double threshold, int memory,
    long window, int candidates, HotKeyRouter.Choice choice, int sample) {

  /** The smallest detector memory cap: 16 counters. */
  public static final int MIN_MEMORY = 16 * HeavyHitterSketch.BYTES_PER_COUNTER + 6 * 16 + 64;

  /**
   * Checks the options.
   *
   * @throws RoutingConfigException naming the {@code routing.hotkey.*} property for a threshold
   *     outside (0, 1], fewer than 2 candidates, a sample that is not a power of two in [1, 1024],
   *     or (with detection) a memory cap below 16 counters or above 64 MiB or a window shorter than
   *     {@code 200 * sample / threshold}
   * @throws NullPointerException if {@code keys}, a key or {@code choice} is null
   */
  public HotKeyOptions {
    keys = List.copyOf(keys);
    Objects.requireNonNull(choice, "choice");
    if (!(threshold > 0 && threshold <= 1)) {
      throw new RoutingConfigException(HotKeyRouter.THRESHOLD, threshold, "must be a share in (0, 1]");
    }
    if (candidates < 2) {
      throw new RoutingConfigException(HotKeyRouter.CANDIDATES, candidates,
          "must be at least 2, or all");
    }
    if (detect && memory > HotKeyRouter.MAX_MEMORY) {
      throw new RoutingConfigException(HotKeyRouter.MEMORY, memory, "must be at most "
          + HotKeyRouter.MAX_MEMORY + " bytes (64 MiB, about 1.6 million counters)");
    }
    if (detect && HeavyHitterSketch.capacityFor(memory) < 16) {
      throw new RoutingConfigException(HotKeyRouter.MEMORY, memory, "must be at least "
          + HeavyHitterSketch.footprint(16) + " bytes (16 counters)");
    }
    if (!HotKeyRouter.isValidSample(sample)) {
      throw new RoutingConfigException(HotKeyRouter.SAMPLE, sample, HotKeyRouter.SAMPLE_RULE);
    }
    // compared as longs when it fits: (double) window rounds above 2^53, so a window just below a
    // large bound would compare equal to it as a double
    double minWindow = HotKeyRouter.minWindow(threshold, sample);
    boolean fits = minWindow < 0x1p63;
    if (detect && (!fits || window < (long) minWindow)) {
      throw new RoutingConfigException(HotKeyRouter.WINDOW, window, "must be at least "
          + (sample == 1 ? "200 / threshold = " : "200 * sample / threshold = ")
          + (fits ? String.valueOf((long) minWindow) : "2^63 or more") + " messages");
    }
  }

  /**
   * Returns the memory the detector of a router with these options may claim, in bytes (0 without
   * detection): at most {@link #memory()}. Allocated when the router first counts a message.
   */
  public int detectorMemoryBytes() {
    return detect ? HeavyHitterSketch.footprint(HeavyHitterSketch.capacityFor(memory)) : 0;
  }
}
