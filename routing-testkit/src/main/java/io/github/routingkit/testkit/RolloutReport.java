package io.github.routingkit.testkit;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.router.canary.CanaryRouter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What each step of a canary rollout by key ({@code routing.canary.*}, {@link CanaryRouter}) does
 * to a key sample: for a plan of shares such as 1 %, 5 %, 25 %, 100 %, the keys and the messages
 * that switch from the old router to the new one at each step, those of them whose partition
 * changes ("move"), the same cumulatively, and which partitions gain or lose load.
 *
 * <p>The sample is a sequence of message keys (repeats allowed: each element is one message, so a
 * hot key weighs by its traffic). The rollout starts at share 0 (every key on the old router).
 * Because the canary is monotone, a key switches at exactly one step: the first whose share is
 * above its {@link CanaryRouter#point canary point}; so the step figures add up to the cumulative
 * ones, and the cumulative figures at share 1 are what a direct switch from the old to the new
 * router moves ({@link MigrationPlan} of the two). Message figures are exact for any sample size;
 * key figures are exact up to {@code exactKeyLimit} distinct keys, NaN past it (the keys are
 * counted in bounded memory, as in {@link DistributionReport}). A router whose choice depends on
 * earlier traffic (hot-key detection, least-loaded choice) is fed the whole sample once.
 * Immutable once built; the builder is not thread-safe.
 */
public final class RolloutReport {
  /** The most partitions a rollout report lays out (per step and partition). */
  public static final int MAX_PARTITIONS = 1 << 16;
  /** The most steps a plan may have. */
  public static final int MAX_STEPS = 100;

  /**
   * One partition's load change at a step.
   */
  public static final class PartitionDelta extends ComponentValue {
    private final int partition;
    private final long delta;
    private final long load;

    /**
     * Creates the value.
     *
     * @param partition the partition, in [0, n)
     * @param delta the net change of the partition's messages at this step: gained (positive) or
     *     lost (negative)
     * @param load messages on the partition after the step
     */
    public PartitionDelta(int partition, long delta, long load) {
      this.partition = partition;
      this.delta = delta;
      this.load = load;
    }

    /** Returns the partition, in [0, n). */
    public int partition() {
      return partition;
    }

    /**
     * Returns the net change of the partition's messages at this step: gained (positive) or
     * lost (negative).
     */
    public long delta() {
      return delta;
    }

    /** Returns messages on the partition after the step. */
    public long load() {
      return load;
    }

    @Override
    Object[] components() {
      return new Object[] {"partition", partition, "delta", delta, "load", load};
    }
  }

  /**
   * One step of the plan.
   */
  public static final class Step extends ComponentValue {
    private final double fromShare;
    private final double toShare;
    private final long switchedKeys;
    private final long movedKeys;
    private final long switchedMessages;
    private final long movedMessages;
    private final long cumulativeMovedKeys;
    private final long cumulativeMovedMessages;
    private final double maxOverMean;
    private final List<PartitionDelta> deltas;

    /**
     * Creates the value.
     *
     * @param fromShare the share before the step, in [0, 1]
     * @param toShare the share after the step, in (fromShare, 1]
     * @param switchedKeys distinct keys that switch router at this step (-1 past the exact key
     *     limit)
     * @param movedKeys distinct keys whose partition changes at this step (-1 past the limit)
     * @param switchedMessages messages whose key switches router at this step
     * @param movedMessages messages whose partition changes at this step
     * @param cumulativeMovedKeys distinct keys moved from share 0 to {@code toShare} (-1 past the
     *     limit)
     * @param cumulativeMovedMessages messages moved from share 0 to {@code toShare}
     * @param maxOverMean the busiest partition's load over the mean after the step
     * @param deltas every partition whose load changes at this step, largest change first
     */
    public Step(
        double fromShare,
        double toShare,
        long switchedKeys,
        long movedKeys,
        long switchedMessages,
        long movedMessages,
        long cumulativeMovedKeys,
        long cumulativeMovedMessages,
        double maxOverMean,
        List<PartitionDelta> deltas) {
      this.fromShare = fromShare;
      this.toShare = toShare;
      this.switchedKeys = switchedKeys;
      this.movedKeys = movedKeys;
      this.switchedMessages = switchedMessages;
      this.movedMessages = movedMessages;
      this.cumulativeMovedKeys = cumulativeMovedKeys;
      this.cumulativeMovedMessages = cumulativeMovedMessages;
      this.maxOverMean = maxOverMean;
      this.deltas = deltas;
    }

    /** Returns the share before the step, in [0, 1]. */
    public double fromShare() {
      return fromShare;
    }

    /** Returns the share after the step, in (fromShare, 1]. */
    public double toShare() {
      return toShare;
    }

    /** Returns distinct keys that switch router at this step (-1 past the exact key limit). */
    public long switchedKeys() {
      return switchedKeys;
    }

    /** Returns distinct keys whose partition changes at this step (-1 past the limit). */
    public long movedKeys() {
      return movedKeys;
    }

    /** Returns messages whose key switches router at this step. */
    public long switchedMessages() {
      return switchedMessages;
    }

    /** Returns messages whose partition changes at this step. */
    public long movedMessages() {
      return movedMessages;
    }

    /** Returns distinct keys moved from share 0 to {@code toShare} (-1 past the limit). */
    public long cumulativeMovedKeys() {
      return cumulativeMovedKeys;
    }

    /** Returns messages moved from share 0 to {@code toShare}. */
    public long cumulativeMovedMessages() {
      return cumulativeMovedMessages;
    }

    /** Returns the busiest partition's load over the mean after the step. */
    public double maxOverMean() {
      return maxOverMean;
    }

    /** Returns every partition whose load changes at this step, largest change first. */
    public List<PartitionDelta> deltas() {
      return deltas;
    }

    @Override
    Object[] components() {
      return new Object[] {
          "fromShare", fromShare, "toShare", toShare, "switchedKeys", switchedKeys,
          "movedKeys", movedKeys, "switchedMessages", switchedMessages,
          "movedMessages", movedMessages, "cumulativeMovedKeys", cumulativeMovedKeys,
          "cumulativeMovedMessages", cumulativeMovedMessages, "maxOverMean", maxOverMean,
          "deltas", deltas};
    }
  }

  private final int partitions;
  private final long messages;
  private final long distinctKeys;
  private final List<Step> steps;

  private RolloutReport(int partitions, long messages, long distinctKeys, List<Step> steps) {
    this.partitions = partitions;
    this.messages = messages;
    this.distinctKeys = distinctKeys;
    this.steps = Collections.unmodifiableList(steps);
  }

  /**
   * Returns a builder for the rollout from {@code oldRouter} to {@code newRouter} over the given
   * increasing shares on a topic of {@code partitions} partitions.
   *
   * @param shares the plan: shares in (0, 1], strictly increasing, at most {@value #MAX_STEPS}
   * @throws IllegalArgumentException for a bad plan or a partition count outside
   *     [1, {@value #MAX_PARTITIONS}]
   * @throws NullPointerException if an argument is null
   */
  public static Builder builder(KeyRouter oldRouter, KeyRouter newRouter, int partitions,
      double... shares) {
    return new Builder(oldRouter, newRouter, partitions, shares);
  }

  /**
   * Returns a builder for the rollout of a spec's canary: from {@link RoutingSpec#withoutCanary()}
   * to {@link RoutingSpec#canaryNext()} (the spec's own share is not used: the plan gives them).
   *
   * @throws IllegalArgumentException if the spec has no canary, or for a bad plan or count
   */
  public static Builder builder(RoutingSpec spec, int partitions, double... shares) {
    if (spec.canaryNext() == null) {
      throw new IllegalArgumentException("the spec has no canary: set " + RoutingSpec.CANARY_SHARE
          + " and " + RoutingSpec.CANARY_NEXT_PREFIX + "* properties, or give the new spec apart");
    }
    return new Builder(spec.withoutCanary().keyRouter(), spec.canaryNext().keyRouter(),
        partitions, shares);
  }

  /** Returns the partition count. */
  public int partitions() {
    return partitions;
  }

  /** Returns the number of messages (sample elements). */
  public long messages() {
    return messages;
  }

  /** Returns the number of distinct keys, or -1 past the exact key limit. */
  public long distinctKeys() {
    return distinctKeys;
  }

  /** Returns the steps, in plan order. */
  public List<Step> steps() {
    return steps;
  }

  /**
   * Returns {@code part / whole} as a percentage with two decimals, e.g. {@code 68.67%}, rounded
   * half-up from the exact ratio (not from a double, which may sit just below or above the half),
   * or {@code n/a} when {@code part < 0} or {@code whole <= 0}. The text report and the
   * {@code routing rollout --max-moved} message both format through this method, so they agree.
   */
  public static String percent(long part, long whole) {
    if (part < 0 || whole <= 0) {
      return "n/a";
    }
    return java.math.BigDecimal.valueOf(part).multiply(java.math.BigDecimal.valueOf(100))
        .divide(java.math.BigDecimal.valueOf(whole), 2, java.math.RoundingMode.HALF_UP)
        .toPlainString() + "%";
  }

  /**
   * Returns the report as text: one line per step (moved keys and messages, at the step and
   * cumulatively) and the {@code top} partitions gaining and losing the most at each step.
   */
  public String toText(int top) {
    return RolloutReportFormat.text(this, top);
  }


  /** Returns the report as one JSON object; key figures past the exact limit are null. */
  public String toJson(int top) {
    return RolloutReportFormat.json(this, top);
  }


  @Override
  public String toString() {
    return toText(5);
  }

  /** Accumulates keys for a {@link RolloutReport}; not thread-safe. */
  public static final class Builder {
    private final KeyRouter oldRouter;
    private final KeyRouter newRouter;
    private final int partitions;
    private final double[] shares; // shares[0] = 0, then the plan
    private final long[] switched;
    private final long[] moved;
    private final long[][] delta; // per step, per partition
    private final long[] start; // load at share 0
    private final KeyTally tally;
    private Function<? super CharSequence, byte[]> keyBytes = key -> null;
    private long messages;

    private Builder(KeyRouter oldRouter, KeyRouter newRouter, int partitions, double[] plan) {
      this.oldRouter = Objects.requireNonNull(oldRouter, "oldRouter");
      this.newRouter = Objects.requireNonNull(newRouter, "newRouter");
      Objects.requireNonNull(plan, "shares");
      if (partitions < 1 || partitions > MAX_PARTITIONS) {
        throw new IllegalArgumentException("partitions was " + partitions + ", must be in [1, "
            + MAX_PARTITIONS + "]");
      }
      if (plan.length == 0 || plan.length > MAX_STEPS) {
        throw new IllegalArgumentException("the plan has " + plan.length + " steps, must have 1 to "
            + MAX_STEPS);
      }
      this.shares = new double[plan.length + 1];
      for (int i = 0; i < plan.length; i++) {
        double s = plan[i];
        if (!(s > shares[i] && s <= 1)) {
          throw new IllegalArgumentException("plan step " + (i + 1) + " was " + s + ", each share"
              + " must be above the previous one (the rollout starts at 0) and at most 1; lowering"
              + " the share is the rollback, not a step of the plan");
        }
        shares[i + 1] = s;
      }
      this.partitions = partitions;
      this.switched = new long[plan.length];
      this.moved = new long[plan.length];
      this.delta = new long[plan.length][partitions];
      this.start = new long[partitions];
      this.tally = new KeyTally(DistributionReport.Builder.defaultExactKeyLimit(), 1);
    }

    /** The step (index into the plan) at which a key with this canary point switches, or -1. */
    private int stepOf(double point) {
      for (int i = 1; i < shares.length; i++) {
        if (point < shares[i]) {
          return i - 1;
        }
      }
      return -1;
    }

    /**
     * Sets which keys stand for binary keys: {@code keyBytes} returns the bytes a producer sends
     * for a key (routed, and placed in the canary, by those bytes), or null for a text key. By
     * default every key is text. The function must be pure: it is applied again to each distinct
     * key when the report is built.
     *
     * @throws IllegalStateException after the first key was added
     * @throws NullPointerException if {@code keyBytes} is null
     */
    public Builder keyBytes(Function<? super CharSequence, byte[]> keyBytes) {
      if (messages > 0) {
        throw new IllegalStateException("set keyBytes before the first key");
      }
      this.keyBytes = Objects.requireNonNull(keyBytes, "keyBytes");
      return this;
    }

    private int partition(KeyRouter router, CharSequence key, byte[] bytes) {
      return bytes != null ? router.partition(bytes, partitions) : router.partition(key, partitions);
    }

    private static double point(CharSequence key, byte[] bytes) {
      return bytes != null ? CanaryRouter.point(bytes) : CanaryRouter.point(key);
    }

    /**
     * Adds one message with key {@code key}: routed as text (its canary point is that of its
     * UTF-8 bytes, as {@link CanaryRouter} decides), or by its bytes if {@link #keyBytes} gives
     * them.
     *
     * @throws NullPointerException if {@code key} is null
     * @throws IllegalArgumentException if a router cannot route on the partition count
     * @throws IllegalStateException likewise (a generation needing more partitions)
     */
    public Builder add(CharSequence key) {
      Objects.requireNonNull(key, "key");
      byte[] bytes = keyBytes.apply(key);
      int from = partition(oldRouter, key, bytes);
      int to = partition(newRouter, key, bytes);
      start[from]++;
      messages++;
      int step = stepOf(point(key, bytes));
      if (step >= 0) {
        switched[step]++;
        if (from != to) {
          moved[step]++;
          delta[step][from]--;
          delta[step][to]++;
        }
      }
      tally.add(key.toString(), 1);
      return this;
    }

    /** Adds every key of {@code keys}. @throws NullPointerException if a key is null */
    public Builder addAll(Iterable<? extends CharSequence> keys) {
      for (CharSequence k : keys) {
        add(k);
      }
      return this;
    }

    /** Returns the report of the keys added so far. */
    public RolloutReport build() {
      int n = shares.length - 1;
      long[] switchedKeys = new long[n];
      long[] movedKeys = new long[n];
      long distinct = -1;
      if (tally.isExact()) {
        Map<String, Long> counts = tally.exactCounts();
        distinct = counts.size();
        for (String k : counts.keySet()) {
          byte[] bytes = keyBytes.apply(k);
          int step = stepOf(point(k, bytes));
          if (step >= 0) {
            switchedKeys[step]++;
            if (partition(oldRouter, k, bytes) != partition(newRouter, k, bytes)) {
              movedKeys[step]++;
            }
          }
        }
      } else {
        java.util.Arrays.fill(switchedKeys, -1);
        java.util.Arrays.fill(movedKeys, -1);
      }
      List<Step> out = new ArrayList<>();
      long[] load = start.clone();
      long cumKeys = 0;
      long cumMessages = 0;
      double mean = (double) messages / partitions;
      for (int i = 0; i < n; i++) {
        List<PartitionDelta> ds = new ArrayList<>();
        long max = 0;
        for (int p = 0; p < partitions; p++) {
          load[p] += delta[i][p];
          max = Math.max(max, load[p]);
          if (delta[i][p] != 0) {
            ds.add(new PartitionDelta(p, delta[i][p], load[p]));
          }
        }
        ds.sort((a, b) -> a.delta() != b.delta()
            ? Long.compare(Math.abs(b.delta()), Math.abs(a.delta())) != 0
                ? Long.compare(Math.abs(b.delta()), Math.abs(a.delta()))
                : Long.compare(b.delta(), a.delta())
            : Integer.compare(a.partition(), b.partition()));
        cumKeys = movedKeys[i] < 0 ? -1 : cumKeys + movedKeys[i];
        cumMessages += moved[i];
        out.add(new Step(shares[i], shares[i + 1], switchedKeys[i], movedKeys[i], switched[i],
            moved[i], cumKeys, cumMessages, messages == 0 ? 0 : max / mean,
            Collections.unmodifiableList(ds)));
      }
      return new RolloutReport(partitions, messages, distinct, out);
    }
  }
}
