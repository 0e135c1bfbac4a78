package io.github.routingkit.stats;

/**
 * What a spread of messages over partitions means for the topic, by its max/mean {@code r}: the
 * vocabulary of the test kit's {@code DistributionReport}, of {@code routing analyze} and of the
 * adapters' skew metrics, decided by one rule ({@link #of}). The first four constants go from
 * best to worst; {@link #SUSPECT_ROUTER} is a skew of another cause.
 *
 * <p>The rule, for {@code n} partitions: {@link #WITHIN_PERFECT_HASH_BOUND} when {@code r} is at
 * most the sampling bound (the 99th percentile a perfect hash reaches on this many messages,
 * {@link PerfectHashBound#maxOverMeanQuantile}); otherwise {@link #SUSPECT_ROUTER} when
 * {@code r >= 1.1} although the keys would spread well (at least
 * {@value #ROUTER_KEYS_PER_PARTITION} effective keys per partition, and {@code r} more than
 * {@value #ROUTER_MARGIN} times both the perfect-hash p99 for those keys and the hot-key floor);
 * otherwise {@link #FIX_KEY_DESIGN} above 1.5, {@link #KEEP_HEADROOM} from 1.1 to 1.5,
 * {@link #BALANCED} below 1.1.
 */
public enum SkewVerdict {
  /**
   * max/mean is within the 99th percentile of a perfect hash on a sample of this many messages:
   * no evidence of skew (the sample may be too small to show any).
   */
  WITHIN_PERFECT_HASH_BOUND,
  /** Slightly above what a perfect hash reaches, but max/mean below 1.1: nothing to do. */
  BALANCED,
  /** max/mean in [1.1, 1.5]: keep about 30 % headroom on the hottest partition (more above 1.3). */
  KEEP_HEADROOM,
  /** max/mean above 1.5 and the keys explain it: fix the key design before adding partitions. */
  FIX_KEY_DESIGN,
  /**
   * max/mean at least 1.1 although the keys would spread well (many effective keys per partition,
   * no dominant key): the router, not the keys, concentrates them (scheme, placement, segment
   * layout, a generation with fewer partitions, a custom partitioner).
   */
  SUSPECT_ROUTER;

  /**
   * Effective keys per partition from which a skew the keys do not explain is blamed on the router.
   */
  public static final int ROUTER_KEYS_PER_PARTITION = 10;
  /** How far above the keys' own bound (perfect-hash p99, hot-key floor) blames the router. */
  public static final double ROUTER_MARGIN = 1.1;
  /** The max/mean from which a spread needs headroom (and below which it is balanced). */
  public static final double HEADROOM_FROM = 1.1;
  /** The max/mean above which the keys need a new design. */
  public static final double KEY_DESIGN_ABOVE = 1.5;

  /**
   * Returns the verdict on a spread.
   *
   * @param maxOverMean the spread's max/mean, at least 1
   * @param samplingP99 the 99th percentile of a perfect hash's max/mean on as many messages,
   *     all keys distinct ({@code PerfectHashBound.maxOverMeanQuantile(messages, n, 0.99)})
   * @param effectiveKeys the effective number of keys ({@link PerfectHashBound#effectiveKeys}), or
   *     NaN when the keys are not known (a live metric that counts partitions, not keys): the
   *     router is then never blamed
   * @param perfectHashP99 the 99th percentile of a perfect hash's max/mean for
   *     {@code effectiveKeys} keys (NaN when they are not known)
   * @param hotKeyFloor {@code max(1, n · p₁)} for the hottest key's share {@code p₁}
   *     ({@link PerfectHashBound#hotKeyFloor}), 1 when no key is known to be hot
   * @param partitions the number of partitions, at least 1
   * @return the verdict, never null
   */
  public static SkewVerdict of(double maxOverMean, double samplingP99, double effectiveKeys,
      double perfectHashP99, double hotKeyFloor, int partitions) {
    double r = maxOverMean;
    if (r <= samplingP99) {
      return WITHIN_PERFECT_HASH_BOUND;
    }
    if (r >= HEADROOM_FROM && effectiveKeys >= (double) ROUTER_KEYS_PER_PARTITION * partitions
        && r > ROUTER_MARGIN * Math.max(perfectHashP99, hotKeyFloor)) {
      return SUSPECT_ROUTER;
    }
    if (r > KEY_DESIGN_ABOVE) {
      return FIX_KEY_DESIGN;
    }
    return r >= HEADROOM_FROM ? KEEP_HEADROOM : BALANCED;
  }
}
