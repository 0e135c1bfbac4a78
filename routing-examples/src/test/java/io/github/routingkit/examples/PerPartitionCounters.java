package io.github.routingkit.examples;

import io.github.routingkit.SwitchBarrier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A consumer's per-key counters kept per partition, as a group member keeps state for the
 * partitions it owns, with the hand-off a canary step needs: at partition {@code p}'s switch marker
 * the keys leaving {@code p} ({@link SwitchBarrier#movedOut}) give their state to whoever reads
 * them next. Each record's value is its key's sequence number; a record whose number is not the
 * counter's is an error (lost state, a duplicate or an out-of-order record).
 */
/** Per-partition per-key counters with hand-off of the keys that leave a partition at its marker. */
public final class PerPartitionCounters {
  private final List<Map<String, Integer>> byPartition = new ArrayList<>();
  public final Map<String, Integer> handedOff = new HashMap<>();
  public int errors;
  public int handOffs;

  public PerPartitionCounters(int partitions) {
    for (int p = 0; p < partitions; p++) {
      byPartition.add(new HashMap<>());
    }
  }

  /** Counts a record seen on partition p; the value is the key's sequence number. */
  public void count(String key, int partition, int seq) {
    Map<String, Integer> state = byPartition.get(partition);
    Integer have = state.get(key);
    if (have == null) {
      have = handedOff.remove(key);
    }
    int want = have == null ? 0 : have;
    if (seq != want) {
      errors++;
    }
    state.put(key, Math.max(want, seq + 1));
  }

  /** At partition p's marker: the keys leaving p give their state to whoever reads them next. */
  public void handOff(int partition, SwitchBarrier<?> barrier) {
    Map<String, Integer> state = byPartition.get(partition);
    for (var it = state.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (barrier.movedOut(e.getKey().getBytes(StandardCharsets.UTF_8), partition)) {
        handedOff.put(e.getKey(), e.getValue());
        it.remove();
        handOffs++;
      }
    }
  }

  public int total(String key) {
    int t = 0;
    for (Map<String, Integer> m : byPartition) {
      t = Math.max(t, m.getOrDefault(key, 0));
    }
    return t;
  }
}
