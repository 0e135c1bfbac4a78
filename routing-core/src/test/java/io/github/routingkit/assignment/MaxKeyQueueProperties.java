package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.property.Choices;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link MaxKeyQueue.Buckets} gives the same {@link MaxKeyQueue#top} as {@link MaxKeyQueue.Heap}
 * (the {@link IntHeap} order {@link PartitionSelector} used before: largest key, ties by the
 * smallest element) after every step of seeded random sequences of adds, removes, key falls by a
 * partition's cost or by a lot, raises, copies of another element's key (ties) and keys set at
 * random, including keys at or below 0 that the contract hides; two queues over interleaved
 * element sets share one slot array, as the per-rack queues do. The heap is itself checked
 * against a scan of the keys. A failure prints its seed and a shrunk counterexample (fewer and
 * smaller steps). {@link #aQueueBreakingTiesTheOtherWayIsCaught} runs the same property on a
 * queue that breaks ties by the largest element and expects it to fail; replacing
 * {@code numberOfTrailingZeros} by the highest set bit in {@code Buckets.top} fails
 * {@link #bucketsAnswerAsTheHeapDoes} the same way.
 */
class MaxKeyQueueProperties {

  /** The queue under test, over {@code elements} (ascending), keys up to {@code maxKey}. */
  interface Factory {
    MaxKeyQueue make(long[] key, int[] elements, int[] slot, long maxKey);
  }

  /**
   * One run: {@code side[e]} is the queue element {@code e} belongs to (0, 1, or -1 for none),
   * initial keys, then steps {kind, element, argument}.
   */
  record Case(int n, long maxKey, int[] side, long[] keys, List<int[]> steps) {
    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("n=").append(n).append(" maxKey=").append(maxKey)
          .append(" side=").append(Arrays.toString(side)).append(" keys=")
          .append(Arrays.toString(keys)).append("\n  steps:");
      for (int[] s : steps) {
        b.append(' ').append(STEP_NAMES[s[0]]).append('(').append(s[1]).append(',').append(s[2])
            .append(')');
      }
      return b.toString();
    }
  }

  static final String[] STEP_NAMES = {"add", "remove", "fall", "fallFar", "raise", "copy", "set"};

  static Gen<Case> cases() {
    return (Choices c) -> {
      int n = 1 + c.drawInt(c.drawInt(2) == 0 ? 12 : 300);
      long maxKey = c.drawInt(2) == 0 ? 1 + c.drawInt(6) : 1 + c.drawInt(2000);
      int[] side = new int[n];
      long[] keys = new long[n];
      for (int e = 0; e < n; e++) {
        side[e] = c.drawInt(5) == 0 ? -1 : c.drawInt(2);
        keys[e] = maxKey - c.drawInt((int) Math.min(maxKey + 3, 1 << 20));
      }
      int count = c.drawInt(600);
      List<int[]> steps = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        steps.add(new int[] {c.drawInt(STEP_NAMES.length), c.drawInt(n), c.drawInt(1 << 20)});
      }
      return new Case(n, maxKey, side, keys, steps);
    };
  }

  /** Runs {@code c} on {@code test} and the heap; throws at the first step where tops differ. */
  static void compare(Case c, Factory test) {
    long[] key = c.keys().clone();
    long[] refKey = c.keys().clone();
    int[][] elements = new int[2][];
    for (int q = 0; q < 2; q++) {
      int side = q;
      elements[q] = java.util.stream.IntStream.range(0, c.n()).filter(e -> c.side()[e] == side).toArray();
    }
    int[] slot = new int[c.n()];
    MaxKeyQueue[] tested = new MaxKeyQueue[2];
    MaxKeyQueue[] ref = new MaxKeyQueue[2];
    boolean[][] in = new boolean[2][c.n()];
    for (int q = 0; q < 2; q++) {
      tested[q] = test.make(key, elements[q], slot, c.maxKey());
      ref[q] = new MaxKeyQueue.Heap(refKey, c.n());
      for (int e : elements[q]) {
        ref[q].add(e);
        in[q][e] = true;
      }
    }
    check(c, -1, key, in, tested, ref);
    for (int i = 0; i < c.steps().size(); i++) {
      int[] s = c.steps().get(i);
      int e = s[1];
      int q = c.side()[e];
      long was = key[e];
      long now = switch (s[0]) {
        case 2 -> was - 1 - s[2] % 3;
        case 3 -> was - 1 - s[2] % c.maxKey();
        case 4 -> Math.min(c.maxKey(), was + 1 + s[2] % 3);
        case 5 -> key[s[2] % c.n()];
        case 6 -> c.maxKey() - s[2] % (c.maxKey() + 3);
        default -> was;
      };
      key[e] = now;
      refKey[e] = now;
      if (q >= 0) {
        switch (s[0]) {
          case 0 -> {
            tested[q].add(e);
            ref[q].add(e);
            in[q][e] = true;
          }
          case 1 -> {
            tested[q].remove(e);
            ref[q].remove(e);
            in[q][e] = false;
          }
          default -> {
            tested[q].update(e);
            ref[q].update(e);
          }
        }
      }
      check(c, i, key, in, tested, ref);
    }
  }

  private static void check(Case c, int step, long[] key, boolean[][] in, MaxKeyQueue[] tested,
      MaxKeyQueue[] ref) {
    for (int q = 0; q < 2; q++) {
      int scan = -1;
      for (int e = 0; e < c.n(); e++) {
        if (in[q][e] && key[e] >= 1 && (scan < 0 || key[e] > key[scan])) {
          scan = e;
        }
      }
      int expected = ref[q].top();
      assertThat(expected).as("heap of queue %d after step %d against a scan", q, step).isEqualTo(scan);
      assertThat(tested[q].top()).as("queue %d after step %d", q, step).isEqualTo(expected);
      assertThat(tested[q].top()).as("queue %d after step %d, asked again", q, step).isEqualTo(expected);
    }
  }

  static MaxKeyQueue buckets(long[] key, int[] elements, int[] slot, long maxKey) {
    return new MaxKeyQueue.Buckets(key, elements, slot, maxKey);
  }

  @Test
  void bucketsAnswerAsTheHeapDoes() {
    Property.check(3000, cases(), c -> compare(c, MaxKeyQueueProperties::buckets));
  }

  @Test
  void theFactoryAnswersAsTheHeapDoesWhicheverItPicks() {
    // budget 0: heaps everywhere but for empty bucket ranges; a large budget: buckets
    Property.check(300, cases(), c -> compare(c, (k, els, slot, max) -> MaxKeyQueue.of(k, els, slot, max, 0)));
    Property.check(300, cases(),
        c -> compare(c, (k, els, slot, max) -> MaxKeyQueue.of(k, els, slot, max, Long.MAX_VALUE)));
  }

  /** Largest key, ties by the largest element: the property must catch it. */
  static final class TiesByLargest implements MaxKeyQueue {
    private final long[] key;
    private final boolean[] in;

    TiesByLargest(long[] key, int[] elements) {
      this.key = key;
      this.in = new boolean[key.length];
      for (int e : elements) {
        in[e] = true;
      }
    }

    @Override
    public void add(int e) {
      in[e] = true;
    }

    @Override
    public void remove(int e) {
      in[e] = false;
    }

    @Override
    public void update(int e) {}

    @Override
    public int top() {
      int best = -1;
      for (int e = 0; e < key.length; e++) {
        if (in[e] && key[e] >= 1 && (best < 0 || key[e] >= key[best])) {
          best = e;
        }
      }
      return best;
    }
  }

  @Test
  void aQueueBreakingTiesTheOtherWayIsCaught() {
    assertThatThrownBy(() -> Property.check(3000, cases(),
        c -> compare(c, (k, els, slot, max) -> new TiesByLargest(k, els))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("seed")
        .hasMessageContaining("counterexample");
  }

  @Test
  void theFactoryPicksBucketsWithinTheBudgetAndHeapsBeyond() {
    long[] key = new long[700];
    Arrays.fill(key, 50);
    int[] all = java.util.stream.IntStream.range(0, 700).toArray();
    int[] slot = new int[700];
    long cost = MaxKeyQueue.Buckets.cost(700, 50);
    assertThat(cost).isEqualTo(50L * (11 + 1));
    assertThat(MaxKeyQueue.of(key, all, slot, 50, cost)).isInstanceOf(MaxKeyQueue.Buckets.class);
    assertThat(MaxKeyQueue.of(key, all, slot, 50, cost - 1)).isInstanceOf(MaxKeyQueue.Heap.class);
    // one member needing a million partitions' worth: far beyond any budget a selector grants
    assertThat(MaxKeyQueue.Buckets.cost(2000, 1_000_000)).isEqualTo(1_000_000L * 33);
    assertThat(MaxKeyQueue.Buckets.cost(2000, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(MaxKeyQueue.Buckets.cost(3, 0)).isZero();
  }

  @Test
  void aKeyAboveTheBoundIsRefused() {
    long[] key = {3, 1};
    MaxKeyQueue q = buckets(key, new int[] {0, 1}, new int[2], 3);
    assertThat(q.top()).isEqualTo(0);
    key[1] = 4;
    assertThatThrownBy(() -> q.update(1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("key 4 above the queue's bound 3");
  }
}
