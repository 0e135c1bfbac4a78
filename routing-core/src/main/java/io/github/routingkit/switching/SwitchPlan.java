package io.github.routingkit.switching;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.internal.Partitions;
import io.github.routingkit.router.canary.CanaryRouter;
import java.util.Arrays;
import java.util.Objects;

/**
 * Which keys a router change moves, from which partition to which, at which step: the pure part
 * of a switch, shared by producers (which markers to send) and consumers (what to hold back).
 *
 * <p>A plan has a <b>generation</b> (a name in the form of {@link SwitchMarker#GENERATION_RULE},
 * carried by every marker of the plan) and 1 to {@value #MAX_STEPS} <b>steps</b>, each with a
 * marker step number (strictly increasing, at least 0). A key moves at most once over the plan:
 * at its step, from its old partition to its new one. Two shapes:
 * <ul>
 *   <li>{@link #oneStep}: every key whose old router and new router disagree moves at the one
 *       step;</li>
 *   <li>{@link #canary}: a canary rollout by key share ({@link CanaryRouter}): the key moves at the
 *       first step whose share is above its {@link CanaryRouter#point canary point} (if the point
 *       is not already below the starting share), from the old router's partition to the new
 *       router's. The canary is monotone, so no key moves twice, whatever the number of steps.</li>
 * </ul>
 * A plan over a hot-key layer is defined by the routers' answers; keys the hot-key layer spreads
 * over several partitions have no per-key order for a switch to keep.
 *
 * <p>Optional <b>settle instants</b> ({@link #withSettleInstants}): a marker of a step written (by
 * its timestamp) before that step's settle instant is premature and ignored.
 *
 * <p>Immutable and thread-safe as the routers are. {@link #moveOf} costs one or two router calls
 * and, for a canary, one XXH3 hash of the key.
 */
public final class SwitchPlan {
  /** The most steps one plan can have (each is one bit of {@link SwitchProgress}). */
  public static final int MAX_STEPS = 63;
  /** The settle instant of a step without one: every marker of it is timely. */
  public static final long NO_SETTLE_INSTANT = Long.MIN_VALUE;

  /** One key's move: at which step, from which partition to which. Immutable value. */
  public static final class Move {
    private final int step;
    private final int from;
    private final int to;

    /**
     * @param step the plan's step index at which the key moves, in [0, steps())
     * @param from the key's partition before that step, in [0, numPartitions())
     * @param to the key's partition after it, in [0, numPartitions()), never {@code from}
     */
    public Move(int step, int from, int to) {
      this.step = step;
      this.from = from;
      this.to = to;
    }

    /** The plan's step index at which the key moves, in [0, steps()). */
    public int step() {
      return step;
    }

    /** The key's partition before that step. */
    public int from() {
      return from;
    }

    /** The key's partition after it, never {@link #from()}. */
    public int to() {
      return to;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Move)) {
        return false;
      }
      Move other = (Move) o;
      return step == other.step && from == other.from && to == other.to;
    }

    @Override
    public int hashCode() {
      return (step * 31 + from) * 31 + to;
    }

    @Override
    public String toString() {
      return "Move[step=" + step + ", from=" + from + ", to=" + to + "]";
    }
  }

  /** What a marker means to this plan. */
  public enum MarkerVerdict {
    /** The marker ends one of the plan's steps in the partition it was read from. */
    ACCEPTED,
    /** The marker names another generation: an older rollout's, replayed or left behind. */
    OTHER_GENERATION,
    /** The marker's step number is not one of the plan's steps. */
    UNKNOWN_STEP,
    /** The marker names another partition than the one it was read from (copied or forged). */
    WRONG_PARTITION,
    /** The marker was written before its step's settle instant. */
    PREMATURE
  }

  private final String generation;
  private final int[] stepNumbers;
  private final long[] settleInstants;
  private final int numPartitions;
  private final KeyRouter oldRouter;
  private final KeyRouter newRouter;
  /** Canary shares: [start, step 0, step 1, ...]; null for a one-step plan. */
  private final double[] shares;

  private SwitchPlan(String generation, int[] stepNumbers, long[] settleInstants,
      int numPartitions, KeyRouter oldRouter, KeyRouter newRouter, double[] shares) {
    this.generation = generation;
    this.stepNumbers = stepNumbers;
    this.settleInstants = settleInstants;
    this.numPartitions = numPartitions;
    this.oldRouter = oldRouter;
    this.newRouter = newRouter;
    this.shares = shares;
  }

  /**
   * A plan of one step: every key whose partition under {@code newRouter} differs from its
   * partition under {@code oldRouter} moves at marker step {@code step}.
   *
   * @param numPartitions the partition count the producers route onto, in [1, 2^20]
   * @throws NullPointerException if a router is null
   * @throws IllegalArgumentException if the generation breaks {@link SwitchMarker#GENERATION_RULE},
   *     {@code step} is negative or {@code numPartitions} is out of range
   */
  public static SwitchPlan oneStep(String generation, int step, KeyRouter oldRouter,
      KeyRouter newRouter, int numPartitions) {
    checkGeneration(generation);
    if (step < 0) {
      throw new IllegalArgumentException("step was " + step + ", must be >= 0");
    }
    return new SwitchPlan(generation, new int[] {step}, new long[] {NO_SETTLE_INSTANT},
        Partitions.checkCount(numPartitions), Objects.requireNonNull(oldRouter, "oldRouter"),
        Objects.requireNonNull(newRouter, "newRouter"), null);
  }

  /**
   * A canary plan: the share of keys routed by {@code newRouter} grows from {@code startShare}
   * through {@code shares}, one step each, with marker step numbers 1, 2, ... The routers are
   * the canary's old and new routers ({@link CanaryRouter#of}); a key with canary point
   * {@code x >= startShare} moves at the first step whose share is above {@code x}, if the two
   * routers put it on different partitions.
   *
   * @param shares the share after each step, strictly increasing, each in (startShare, 1]; 1 to
   *     {@value #MAX_STEPS} of them
   * @throws NullPointerException if a router or {@code shares} is null
   * @throws IllegalArgumentException if the generation breaks the rule, a share is out of range or
   *     not increasing, or {@code numPartitions} is out of range
   */
  public static SwitchPlan canary(String generation, KeyRouter oldRouter, KeyRouter newRouter,
      double startShare, double[] shares, int numPartitions) {
    checkGeneration(generation);
    Objects.requireNonNull(shares, "shares");
    if (shares.length == 0 || shares.length > MAX_STEPS) {
      throw new IllegalArgumentException("a canary plan has " + shares.length
          + " steps, must have 1 to " + MAX_STEPS);
    }
    if (!(startShare >= 0 && startShare < 1)) {
      throw new IllegalArgumentException("start share was " + startShare + ", must be in [0, 1)");
    }
    double[] all = new double[shares.length + 1];
    all[0] = startShare;
    int[] numbers = new int[shares.length];
    for (int i = 0; i < shares.length; i++) {
      if (!(shares[i] > all[i] && shares[i] <= 1)) {
        throw new IllegalArgumentException("share of step " + (i + 1) + " was " + shares[i]
            + ", must be above the share before it (" + all[i] + ") and at most 1");
      }
      all[i + 1] = shares[i];
      numbers[i] = i + 1;
    }
    long[] settle = new long[shares.length];
    Arrays.fill(settle, NO_SETTLE_INSTANT);
    return new SwitchPlan(generation, numbers, settle, Partitions.checkCount(numPartitions),
        Objects.requireNonNull(oldRouter, "oldRouter"),
        Objects.requireNonNull(newRouter, "newRouter"), all);
  }

  /**
   * Returns this plan with settle instants: a marker of step index {@code i} whose timestamp is
   * below {@code epochMillis[i]} is {@link MarkerVerdict#PREMATURE}. {@link #NO_SETTLE_INSTANT}
   * accepts every timestamp.
   *
   * @param epochMillis one instant per step, milliseconds since the epoch
   * @throws IllegalArgumentException if the count differs from {@link #steps()}
   */
  public SwitchPlan withSettleInstants(long... epochMillis) {
    if (epochMillis.length != stepNumbers.length) {
      throw new IllegalArgumentException(epochMillis.length + " settle instants for "
          + stepNumbers.length + " steps");
    }
    return new SwitchPlan(generation, stepNumbers, epochMillis.clone(), numPartitions, oldRouter,
        newRouter, shares);
  }

  private static void checkGeneration(String generation) {
    if (!SwitchMarker.validGeneration(generation)) {
      throw new IllegalArgumentException("generation was '" + generation + "', "
          + SwitchMarker.GENERATION_RULE);
    }
  }

  /** The plan's generation, carried by each of its markers. */
  public String generation() {
    return generation;
  }

  /** The number of steps, in [1, {@value #MAX_STEPS}]. */
  public int steps() {
    return stepNumbers.length;
  }

  /** The marker step number of step index {@code index}. */
  public int stepNumber(int index) {
    return stepNumbers[index];
  }

  /** The step index of a marker step number, or -1 if the plan has no such step. */
  public int stepIndex(int stepNumber) {
    int i = Arrays.binarySearch(stepNumbers, stepNumber);
    return i < 0 ? -1 : i;
  }

  /** The settle instant of step index {@code index} ({@link #NO_SETTLE_INSTANT} if none). */
  public long settleInstant(int index) {
    return settleInstants[index];
  }

  /** The router before the plan's first step (a canary's old router). */
  public KeyRouter oldRouter() {
    return oldRouter;
  }

  /** The router after its last step, for the keys that move (a canary's new router). */
  public KeyRouter newRouter() {
    return newRouter;
  }

  /** The partition count the plan routes onto, in [1, 2^20]. */
  public int numPartitions() {
    return numPartitions;
  }

  /**
   * What {@code marker}, read from {@code partition} with timestamp {@code timestamp} (milliseconds
   * since the epoch; ignored without settle instants), means to this plan.
   */
  public MarkerVerdict verdict(SwitchMarker marker, int partition, long timestamp) {
    if (!generation.equals(marker.generation())) {
      return MarkerVerdict.OTHER_GENERATION;
    }
    int index = stepIndex(marker.step());
    if (index < 0) {
      return MarkerVerdict.UNKNOWN_STEP;
    }
    if (marker.partition() != partition) {
      return MarkerVerdict.WRONG_PARTITION;
    }
    return timestamp < settleInstants[index] ? MarkerVerdict.PREMATURE : MarkerVerdict.ACCEPTED;
  }

  /** The move of a byte key (as the producer's router saw it), or null if the key never moves. */
  public Move moveOf(byte[] key) {
    return unpack(move(key));
  }

  /** The move of a text key, routed as the routers route text, or null if it never moves. */
  public Move moveOf(CharSequence key) {
    return unpack(move(key));
  }

  /** Packed move of a byte key: 0 if none, else see {@link #pack}. */
  long move(byte[] key) {
    int step = shares == null ? 0 : canaryStep(CanaryRouter.point(key));
    if (step < 0) {
      return 0;
    }
    return pack(step, oldRouter.partition(key, numPartitions),
        newRouter.partition(key, numPartitions));
  }

  /** Packed move of a text key. */
  long move(CharSequence key) {
    int step = shares == null ? 0 : canaryStep(CanaryRouter.point(key));
    if (step < 0) {
      return 0;
    }
    return pack(step, oldRouter.partition(key, numPartitions),
        newRouter.partition(key, numPartitions));
  }

  /** The step index at which a key with canary point {@code point} switches, or -1 if none. */
  private int canaryStep(double point) {
    if (point < shares[0]) {
      return -1;
    }
    for (int i = 1; i < shares.length; i++) {
      if (point < shares[i]) {
        return i - 1;
      }
    }
    return -1;
  }

  private static long pack(int step, int from, int to) {
    return from == to ? 0 : (long) (step + 1) << 42 | (long) from << 21 | to;
  }

  static int step(long move) {
    return (int) (move >>> 42) - 1;
  }

  static int from(long move) {
    return (int) (move >>> 21) & 0x1fffff;
  }

  static int to(long move) {
    return (int) move & 0x1fffff;
  }

  private static Move unpack(long move) {
    return move == 0 ? null : new Move(step(move), from(move), to(move));
  }

  @Override
  public String toString() {
    return "SwitchPlan[" + generation + ", steps " + Arrays.toString(stepNumbers)
        + (shares == null ? "" : ", shares " + Arrays.toString(shares)) + ", " + numPartitions
        + " partitions]";
  }
}
