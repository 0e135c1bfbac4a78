package io.github.routingkit.router.hotkey;

/**
 * How a hot key's message picks one of its candidates: one subclass per
 * {@link HotKeyRouter.Choice}. Implementations are thread-safe.
 */
abstract class CandidateChoice {

  /** Returns the strategy of {@code choice}, with fresh state. */
  static CandidateChoice of(HotKeyRouter.Choice choice) {
    switch (choice) {
      case ROUND_ROBIN:
        return new RoundRobinChoice();
      case VALUE_HASH:
        return new ValueHashChoice();
      default:
        return new LeastLoadedChoice();
    }
  }

  /** Whether {@link #countCold} must see every message that is not hot. */
  boolean countsColdKeys() {
    return false;
  }

  /** Returns this strategy's state for a new partition count {@code n} (null if it needs none). */
  Object newSpaceState(int n) {
    return null;
  }

  /** Notes that a message that is not hot went to partition {@code base} of {@code space}. */
  void countCold(HotKeyCandidates.Space space, int base) {}

  /**
   * Returns the partition for a hot key's message: one of the {@code d} candidates
   * {@code (base + i * stride) mod space.n}, {@code i} in {@code [0, d)}.
   *
   * @param value the message value, or null
   */
  abstract int choose(HotKeyCandidates.Space space, int base, int stride, int d, byte[] value);
}
