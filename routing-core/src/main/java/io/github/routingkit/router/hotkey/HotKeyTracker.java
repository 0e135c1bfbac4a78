package io.github.routingkit.router.hotkey;

import java.util.List;

/**
 * Finds the hot keys of a message stream without routing it: the detector of {@link HotKeyRouter}
 * (a Space-Saving heavy-hitter summary with decay, sampled), for a producer whose router has no
 * hot-key layer. The adapters' metrics feed it when {@code routing.metrics.hotkey.sample} is set.
 *
 * <p><b>Memory</b> is fixed by the cap ({@value #DEFAULT_MEMORY} bytes by default: 1024
 * counters), allocated when the first message is counted, plus one copy of each hot key's bytes.
 *
 * <p><b>Error.</b> With {@code m} counters, a reported share over-estimates the share of the
 * counted messages by at most {@code 1/m} ({@link HotKeyEstimate#maxError()} gives the exact
 * bound of each key); a key whose counted share exceeds {@code threshold + 1/m} is always
 * reported once {@code 100 / threshold} messages were counted. Counting one message in
 * {@code sample}, drawn pseudo-randomly per thread, adds the noise of a random sample: about
 * {@code sqrt(p(1-p)/N)} for a key of share {@code p} when the summary holds {@code N} counted
 * messages (between half and all of {@code window / sample}, as counts halve at the window).
 *
 * <p>Thread-safe; {@link #offer} never blocks (a message that arrives while another thread counts
 * is not counted) and allocates nothing except as above.
 */
public final class HotKeyTracker {
  /** The default memory cap in bytes (64 KiB). */
  public static final int DEFAULT_MEMORY = 64 * 1024;

  private final HotKeyDetector detector;
  private final int memory;

  private HotKeyTracker(HotKeyOptions options) {
    this.detector = new HotKeyDetector(options);
    this.memory = options.detectorMemoryBytes();
  }

  /**
   * Returns a tracker with the default memory and window
   * ({@link HotKeyRouter#defaultWindow(double, int)}).
   *
   * @param threshold the share of the counted messages from which a key is hot, in (0, 1]
   * @param sample counts one message in {@code sample}: a power of two in [1, 1024]
   * @throws IllegalArgumentException for a threshold outside (0, 1] or a bad sample
   */
  public static HotKeyTracker of(double threshold, int sample) {
    return of(threshold, sample, DEFAULT_MEMORY, HotKeyRouter.defaultWindow(threshold, sample));
  }

  /**
   * Returns a tracker.
   *
   * @param threshold the share of the counted messages from which a key is hot, in (0, 1]
   * @param sample counts one message in {@code sample}: a power of two in [1, 1024]
   * @param memoryBytes the memory cap in bytes, from 16 counters to 64 MiB
   * @param window messages after which the counts halve, at least {@code 200 * sample / threshold}
   * @throws IllegalArgumentException naming the option, its value and the rule, as
   *     {@link HotKeyOptions} does
   */
  public static HotKeyTracker of(double threshold, int sample, int memoryBytes, long window) {
    return new HotKeyTracker(new HotKeyOptions(List.of(), true, threshold, memoryBytes, window, 2,
        HotKeyRouter.Choice.VALUE_HASH, sample));
  }

  /** Offers a message with this key (the whole array); {@code null} is ignored. */
  public void offer(byte[] key) {
    if (key != null && detector.drawCount()) {
      detector.count(detector.fingerprint(key, 0, key.length), key, 0, key.length);
    }
  }

  /**
   * Offers a message with this text key; {@code null} is ignored. Text keys are identified by
   * their characters: feed one tracker either text or bytes of the same keys, not both.
   */
  public void offer(CharSequence key) {
    if (key != null && detector.drawCount()) {
      detector.count(HotKeyDetector.fingerprint(key), key);
    }
  }

  /**
   * Returns the keys hot right now, hottest first, with their estimated shares of the counted
   * messages (empty before the warm-up). Waits for a counting thread; allocates; not for the
   * per-message path.
   */
  public List<HotKeyEstimate> hotKeys() {
    return detector.estimates();
  }

  /** Returns the summary's fixed memory in bytes (claimed when the first message is counted). */
  public int memoryBytes() {
    return memory;
  }
}
