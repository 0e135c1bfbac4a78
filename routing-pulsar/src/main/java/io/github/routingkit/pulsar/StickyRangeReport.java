package io.github.routingkit.pulsar;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;
import org.apache.pulsar.client.api.Range;

/**
 * The result of {@link KeySharedPredictor#validateStickyRanges}: every problem with a set of sticky
 * hash ranges ({@code KeySharedPolicy.stickyHashRange()}) at once.
 *
 * <ul>
 *   <li><b>Overlaps</b> and <b>out-of-range bounds</b> (outside {@code [0, 65535]}) and consumers
 *       <b>without ranges</b> make a consumer fail to subscribe: the client's
 *       {@code KeySharedPolicy.validate()} or the broker's {@code
 *       HashRangeExclusiveStickyKeyConsumerSelector} rejects it.
 *   <li><b>Gaps</b> subscribe fine and are worse: messages whose slot no consumer owns are
 *       delivered to nobody and stay in the backlog. The report gives the gaps as maximal inclusive
 *       slot ranges within {@code [1, 65535]}, the slots a key can reach (the broker's
 *       {@code makeStickyKeyHash} maps slot 0 to 1, so no key has slot 0 and {@code [1, 65535]}
 *       covers every key), and the share of a key sample that falls into them.
 * </ul>
 *
 * <p>{@link #toString()} leads with the share of keys no consumer receives.
 *
 * <p>Immutable and thread-safe.
 */
public final class StickyRangeReport {

  /** Two overlapping ranges (of the same consumer when both names are equal). */
  public static final class Overlap {
    private final String consumer;
    private final Range range;
    private final String otherConsumer;
    private final Range otherRange;

    /** Creates the value. */
    public Overlap(String consumer, Range range, String otherConsumer, Range otherRange) {
      this.consumer = consumer;
      this.range = range;
      this.otherConsumer = otherConsumer;
      this.otherRange = otherRange;
    }

    /** Returns the {@code consumer} component. */
    public String consumer() {
      return consumer;
    }

    /** Returns the {@code range} component. */
    public Range range() {
      return range;
    }

    /** Returns the {@code otherConsumer} component. */
    public String otherConsumer() {
      return otherConsumer;
    }

    /** Returns the {@code otherRange} component. */
    public Range otherRange() {
      return otherRange;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Overlap)) {
        return false;
      }
      Overlap other = (Overlap) o;
      return Objects.equals(consumer, other.consumer)
          && Objects.equals(range, other.range)
          && Objects.equals(otherConsumer, other.otherConsumer)
          && Objects.equals(otherRange, other.otherRange);
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(consumer);
      h = 31 * h + Objects.hashCode(range);
      h = 31 * h + Objects.hashCode(otherConsumer);
      h = 31 * h + Objects.hashCode(otherRange);
      return h;
    }

    @Override
    public String toString() {
      return "Overlap[consumer=" + consumer + ", range=" + range + ", otherConsumer="
          + otherConsumer + ", otherRange=" + otherRange + "]";
    }
  }

  /** A range with a bound outside {@code [0, 65535]}. */
  public static final class OutOfRange {
    private final String consumer;
    private final Range range;

    /** Creates the value. */
    public OutOfRange(String consumer, Range range) {
      this.consumer = consumer;
      this.range = range;
    }

    /** Returns the {@code consumer} component. */
    public String consumer() {
      return consumer;
    }

    /** Returns the {@code range} component. */
    public Range range() {
      return range;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof OutOfRange)) {
        return false;
      }
      OutOfRange other = (OutOfRange) o;
      return Objects.equals(consumer, other.consumer)
          && Objects.equals(range, other.range);
    }

    @Override
    public int hashCode() {
      int h = 0;
      h = 31 * h + Objects.hashCode(consumer);
      h = 31 * h + Objects.hashCode(range);
      return h;
    }

    @Override
    public String toString() {
      return "OutOfRange[consumer=" + consumer + ", range=" + range + "]";
    }
  }

  /** The lowest slot a key can hash to: the broker maps slot 0 to 1. */
  static final int FIRST_REACHABLE_SLOT = 1;

  /** The number of slots a key can hash to: {@code [1, 65535]}. */
  public static final int REACHABLE_SLOTS = KeySharedPredictor.HASH_RANGE_SIZE - 1;

  private final List<Overlap> overlaps;
  private final List<OutOfRange> outOfRange;
  private final List<String> withoutRanges;
  private final List<Range> gaps;
  private final int gapSlots;
  private final long sampleSize;
  private final long keysInGaps;

  private StickyRangeReport(List<Overlap> overlaps, List<OutOfRange> outOfRange,
      List<String> withoutRanges, List<Range> gaps, int gapSlots, long sampleSize,
      long keysInGaps) {
    this.overlaps = List.copyOf(overlaps);
    this.outOfRange = List.copyOf(outOfRange);
    this.withoutRanges = List.copyOf(withoutRanges);
    this.gaps = List.copyOf(gaps);
    this.gapSlots = gapSlots;
    this.sampleSize = sampleSize;
    this.keysInGaps = keysInGaps;
  }

  static <K> StickyRangeReport of(
      Map<String, List<Range>> ranges, Iterable<? extends K> sample, ToIntFunction<K> slot) {
    List<Overlap> overlaps = new ArrayList<>();
    List<OutOfRange> outOfRange = new ArrayList<>();
    List<String> withoutRanges = new ArrayList<>();
    List<Map.Entry<String, Range>> all = new ArrayList<>();
    BitSet covered = new BitSet(KeySharedPredictor.HASH_RANGE_SIZE);
    ranges.forEach((name, list) -> {
      if (list.isEmpty()) {
        withoutRanges.add(name);
      }
      for (Range r : list) {
        if (r.getStart() < 0 || r.getEnd() >= KeySharedPredictor.HASH_RANGE_SIZE) {
          outOfRange.add(new OutOfRange(name, r));
        }
        int from = Math.max(0, r.getStart());
        int to = Math.min(KeySharedPredictor.HASH_RANGE_SIZE - 1, r.getEnd());
        if (from <= to) {
          covered.set(from, to + 1);
        }
        all.add(Map.entry(name, r));
      }
    });
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        Range a = all.get(i).getValue();
        Range b = all.get(j).getValue();
        if (a.intersect(b) != null) {
          overlaps.add(new Overlap(all.get(i).getKey(), a, all.get(j).getKey(), b));
        }
      }
    }
    List<Range> gaps = new ArrayList<>();
    int gapSlots = 0;
    int size = KeySharedPredictor.HASH_RANGE_SIZE;
    int s = covered.nextClearBit(FIRST_REACHABLE_SLOT);
    while (s < size) {
      int next = covered.nextSetBit(s);
      int end = (next < 0 ? size : next) - 1;
      gaps.add(Range.of(s, end));
      gapSlots += end - s + 1;
      s = next < 0 ? size : covered.nextClearBit(next);
    }
    long n = 0;
    long inGaps = 0;
    for (K key : sample) {
      n++;
      if (!covered.get(slot.applyAsInt(key))) {
        inGaps++;
      }
    }
    return new StickyRangeReport(
        overlaps, outOfRange, withoutRanges, gaps, gapSlots, n, inGaps);
  }

  /** Returns every pair of overlapping ranges, within one consumer or between two. */
  public List<Overlap> overlaps() {
    return overlaps;
  }

  /** Returns the ranges with a bound outside {@code [0, 65535]}. */
  public List<OutOfRange> outOfRange() {
    return outOfRange;
  }

  /** Returns the consumers that declared no range at all. */
  public List<String> consumersWithoutRanges() {
    return withoutRanges;
  }

  /**
   * Returns the maximal inclusive slot ranges within {@code [1, 65535]} (the slots keys reach)
   * that no consumer owns, ascending.
   */
  public List<Range> gaps() {
    return gaps;
  }

  /** Returns the number of slots in {@link #gaps()}, in {@code [0, }{@value #REACHABLE_SLOTS}{@code ]}. */
  public int gapSlots() {
    return gapSlots;
  }

  /** Returns the number of sample keys checked. */
  public long sampleSize() {
    return sampleSize;
  }

  /** Returns the number of sample keys whose slot is in a gap: delivered to nobody. */
  public long keysInGaps() {
    return keysInGaps;
  }

  /** Returns {@link #keysInGaps()} / {@link #sampleSize()} in [0, 1], 0 for an empty sample. */
  public double gapShare() {
    return sampleSize == 0 ? 0 : (double) keysInGaps / sampleSize;
  }

  /**
   * Returns true if every consumer can subscribe with these ranges: no overlaps, no bound outside
   * {@code [0, 65535]}, no consumer without ranges. Gaps do not make ranges invalid.
   */
  public boolean isValid() {
    return overlaps.isEmpty() && outOfRange.isEmpty() && withoutRanges.isEmpty();
  }

  /**
   * Returns the share of the reachable slots (see {@link #REACHABLE_SLOTS}) in gaps, in [0, 1]:
   * the expected share of keys nobody receives for uniformly hashed keys.
   */
  public double gapSlotShare() {
    return (double) gapSlots / REACHABLE_SLOTS;
  }

  /**
   * Returns true if the ranges are valid and every slot a key can reach ({@code [1, 65535]}) is
   * owned; slot 0 need not be.
   */
  public boolean coversAllSlots() {
    return isValid() && gaps.isEmpty();
  }

  /**
   * Returns a readable multi-line summary. The first line is the share of keys no consumer
   * receives (of the sample, and of the slots), then whether every consumer can subscribe, then
   * one line per problem.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "keys no consumer receives: %.3f %% of %d sample keys,"
            + " %.3f %% of slots (%d of %d in %d %s)%n", 100 * gapShare(), sampleSize,
        100 * gapSlotShare(), gapSlots, REACHABLE_SLOTS, gaps.size(),
        gaps.size() == 1 ? "gap" : "gaps"));
    sb.append(isValid() ? "every consumer can subscribe"
        : "INVALID: " + (overlaps.size() + outOfRange.size() + withoutRanges.size())
            + " problems make consumers fail to subscribe").append('\n');
    for (Overlap o : overlaps) {
      sb.append("overlap: ").append(o.consumer()).append(' ').append(o.range()).append(" and ")
          .append(o.otherConsumer()).append(' ').append(o.otherRange()).append('\n');
    }
    for (OutOfRange o : outOfRange) {
      sb.append("out of [0, 65535]: ").append(o.consumer()).append(' ').append(o.range())
          .append('\n');
    }
    for (String c : withoutRanges) {
      sb.append("no ranges: ").append(c).append('\n');
    }
    for (Range g : gaps) {
      sb.append("gap: ").append(g).append('\n');
    }
    return sb.toString().stripTrailing();
  }
}
