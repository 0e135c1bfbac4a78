package io.github.routingkit.assignment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ObjIntConsumer;

/**
 * The result of one {@link AssignmentPolicy#assign} call (one rebalance): the partitions each
 * member gets, and the partitions held back until their current owner has revoked them
 * (cooperative mode only). Named so that it does not clash with Kafka's own
 * {@code ConsumerPartitionAssignor.GroupAssignment} and
 * {@code org.apache.kafka.coordinator.group.api.assignor.GroupAssignment}.
 *
 * <p>Immutable and thread-safe. Every member of the input appears (possibly with no partitions);
 * a member's partitions are in {@link PartitionRef} order; no partition appears twice. The
 * partitions are held as indexes and turned into {@link PartitionRef} lists only when
 * {@link #byMember()} or {@link #partitionsOf} is called; adapters that build their own partition
 * type use {@link #forEachPartition}, which allocates nothing per partition.
 */
public final class RebalanceResult {
  private final String[] memberIds; // sorted
  private final String[] topicNames; // sorted
  private final int[] topicOffset; // global index of each topic's partition 0; length topics + 1
  private final int[][] partitions; // per member, ascending global indexes
  private final int[] pending; // ascending global indexes
  private final int[] kept; // per member, how many of its partitions it owned (its claim won)
  private final GroupShape shape;
  private volatile Map<String, List<PartitionRef>> byMember;

  private RebalanceResult(GroupShape shape, String[] memberIds, String[] topicNames,
      int[] topicOffset, int[][] partitions, int[] pending, int[] kept) {
    this.shape = shape;
    this.memberIds = memberIds;
    this.kept = kept;
    this.topicNames = topicNames;
    this.topicOffset = topicOffset;
    this.partitions = partitions;
    this.pending = pending;
  }

  /**
   * The result of {@code group}'s assignment, with members in member-id order.
   *
   * @param lists per member (canonical order, as {@code group.members}) its partitions as
   *     ascending global indexes; taken as they are
   * @param pending the partitions held back, ascending global indexes
   * @param kept per member (canonical order) how many of its partitions it owned
   */
  static RebalanceResult of(GroupShape shape, SortedGroup group, int[][] lists, int[] pending,
      int[] kept) {
    GroupMember[] mem = group.members;
    int m = mem.length;
    String[] ids = new String[m];
    int[][] sorted = lists;
    int[] keptById = kept;
    boolean idOrder = true; // without static members the canonical order is the id order
    for (int i = 0; i < m; i++) {
      ids[i] = mem[i].memberId();
      if (idOrder && i > 0 && ids[i - 1].compareTo(ids[i]) >= 0) {
        idOrder = false;
      }
    }
    if (!idOrder) {
      Integer[] byId = new Integer[m];
      for (int i = 0; i < m; i++) {
        byId[i] = i;
      }
      Arrays.sort(byId, (a, b) -> mem[a].memberId().compareTo(mem[b].memberId()));
      sorted = new int[m][];
      keptById = new int[m];
      for (int j = 0; j < m; j++) {
        ids[j] = mem[byId[j]].memberId();
        sorted[j] = lists[byId[j]];
        keptById[j] = kept[byId[j]];
      }
    }
    String[] names = new String[group.topics.length];
    for (int t = 0; t < names.length; t++) {
      names[t] = group.topics[t].name();
    }
    return new RebalanceResult(shape, ids, names, group.offset, sorted, pending, keptById);
  }

  /**
   * {@link #of} from the targets a builder laid into {@code index}: partition {@code c} of the
   * index (global index {@code gpOf[c]}, or {@code c} itself if {@code gpOf} is null) goes to
   * member {@code index.target[c]} (none if negative), and member {@code i} keeps
   * {@code keep[i]} besides (null: nothing besides). In cooperative mode a partition going away
   * from a member that still claims it is held back instead: its target becomes -2 and it is
   * pending revocation. The index's partitions must be ascending in global index.
   */
  static RebalanceResult ofTargets(GroupShape shape, SortedGroup group, GroupIndex index,
      int[] gpOf, int[][] keep, boolean cooperative) {
    int n = group.members.length;
    int count = gpOf == null ? index.partitionCount : gpOf.length;
    int[] givenCount = new int[n];
    int[] keptCount = new int[n];
    int pendingCount = 0;
    for (int i = 0; keep != null && i < n; i++) {
      keptCount[i] = keep[i].length;
    }
    for (int c = 0; c < count; c++) {
      int to = index.target[c];
      if (to < 0) {
        continue;
      }
      if (cooperative && index.owner[c] != to && index.claimed.get(c)) {
        index.target[c] = -2;
        pendingCount++;
      } else {
        givenCount[to]++;
        if (index.owner[c] == to) {
          keptCount[to]++;
        }
      }
    }
    int[][] given = new int[n][];
    for (int i = 0; i < n; i++) {
      given[i] = givenCount[i] == 0 ? EqualSubscriptionsFromClaims.NONE : new int[givenCount[i]];
    }
    int[] pending = pendingCount == 0 ? EqualSubscriptionsFromClaims.NONE : new int[pendingCount];
    Arrays.fill(givenCount, 0);
    int pc = 0;
    for (int c = 0; c < count; c++) {
      int to = index.target[c];
      int gp = gpOf == null ? c : gpOf[c];
      if (to >= 0) {
        given[to][givenCount[to]++] = gp;
      } else if (to == -2) {
        pending[pc++] = gp;
      }
    }
    if (keep == null) {
      return of(shape, group, given, pending, keptCount);
    }
    return ofKeptAndGiven(shape, group, keep, given, givenCount, pending, keptCount);
  }

  /**
   * {@link #of} from what each member keeps and what it is given: member {@code i}'s partitions
   * are {@code keep[i]} and {@code given[i][0..givenCount[i])}, each ascending, the two disjoint.
   */
  static RebalanceResult ofKeptAndGiven(GroupShape shape, SortedGroup group, int[][] keep,
      int[][] given, int[] givenCount, int[] pending, int[] kept) {
    int n = keep.length;
    int[][] lists = new int[n][];
    for (int i = 0; i < n; i++) {
      int gc = givenCount[i];
      if (gc == 0) {
        lists[i] = keep[i];
      } else if (keep[i].length == 0) {
        lists[i] = gc == given[i].length ? given[i] : Arrays.copyOf(given[i], gc);
      } else {
        lists[i] = merge(keep[i], given[i], gc);
      }
    }
    return of(shape, group, lists, pending, kept);
  }

  /** The ascending merge of {@code a} and {@code b[0..bn)}, both ascending and disjoint. */
  private static int[] merge(int[] a, int[] b, int bn) {
    int[] out = new int[a.length + bn];
    int i = 0;
    int j = 0;
    int o = 0;
    while (i < a.length && j < bn) {
      out[o++] = a[i] < b[j] ? a[i++] : b[j++];
    }
    while (i < a.length) {
      out[o++] = a[i++];
    }
    while (j < bn) {
      out[o++] = b[j++];
    }
    return out;
  }

  /**
   * Returns the shape of group the policy recognised and the builder that computed this result
   * (what an adapter may log); it says nothing about the assignment itself.
   */
  public GroupShape shape() {
    return shape;
  }

  /** Returns the member ids, sorted. */
  public List<String> memberIds() {
    return Collections.unmodifiableList(Arrays.asList(memberIds));
  }

  /** Returns member id to its sorted partitions, for every member, in member-id order. */
  public Map<String, List<PartitionRef>> byMember() {
    Map<String, List<PartitionRef>> m = byMember;
    if (m == null) {
      TreeMap<String, List<PartitionRef>> out = new TreeMap<>();
      for (int i = 0; i < memberIds.length; i++) {
        out.put(memberIds[i], refs(partitions[i]));
      }
      byMember = m = Collections.unmodifiableMap(out);
    }
    return m;
  }

  /** Returns the sorted partitions of {@code memberId}, or an empty list for an unknown member. */
  public List<PartitionRef> partitionsOf(String memberId) {
    int i = Arrays.binarySearch(memberIds, memberId);
    return i < 0 ? List.of() : refs(partitions[i]);
  }

  /** Returns how many partitions {@code memberId} gets (0 for an unknown member). */
  public int countOf(String memberId) {
    int i = Arrays.binarySearch(memberIds, memberId);
    return i < 0 ? 0 : partitions[i].length;
  }

  /**
   * Returns how many of the partitions {@code memberId} gets in this result it already owned: those
   * whose claim by this member won (see {@link AssignmentPolicy}; 0 for an unknown member). When
   * this equals both {@link #countOf} and the number of distinct partitions the member claimed,
   * the member's assignment is exactly what it claimed, which lets an adapter hand back the
   * member's current assignment object unchanged.
   */
  public int keptCountOf(String memberId) {
    int i = Arrays.binarySearch(memberIds, memberId);
    return i < 0 ? 0 : kept[i];
  }

  /**
   * Calls {@code action} with (topic, partition) for each partition of {@code memberId}, in
   * {@link PartitionRef} order; does nothing for an unknown member.
   */
  public void forEachPartition(String memberId, ObjIntConsumer<String> action) {
    int i = Arrays.binarySearch(memberIds, memberId);
    if (i < 0) {
      return;
    }
    int t = 0;
    for (int gp : partitions[i]) {
      while (gp >= topicOffset[t + 1]) {
        t++;
      }
      action.accept(topicNames[t], gp - topicOffset[t]);
    }
  }

  /** Receives one topic's partitions of one member; see {@link #forEachTopic}. */
  @FunctionalInterface
  public interface TopicPartitions {
    /**
     * @param topic the topic name
     * @param topicIndex the topic's position in {@link #topicNames()}
     * @param partitions the member's partition numbers of this topic, ascending, non-empty; a
     *     fresh array the receiver may keep
     */
    void accept(String topic, int topicIndex, int[] partitions);
  }

  /** Returns the names of all topics the result can refer to, sorted. */
  public List<String> topicNames() {
    return Collections.unmodifiableList(Arrays.asList(topicNames));
  }

  /**
   * Calls {@code action} once for each topic of which {@code memberId} gets partitions, in topic
   * order, with those partitions as an int array (no object per partition); does nothing for an
   * unknown member.
   */
  public void forEachTopic(String memberId, TopicPartitions action) {
    int i = Arrays.binarySearch(memberIds, memberId);
    if (i < 0) {
      return;
    }
    int[] gps = partitions[i];
    int j = 0;
    int t = 0;
    while (j < gps.length) {
      while (gps[j] >= topicOffset[t + 1]) {
        t++;
      }
      int end = j;
      while (end < gps.length && gps[end] < topicOffset[t + 1]) {
        end++;
      }
      int[] ps = new int[end - j];
      for (int k = j; k < end; k++) {
        ps[k - j] = gps[k] - topicOffset[t];
      }
      action.accept(topicNames[t], t, ps);
      j = end;
    }
  }

  /**
   * Returns how many partitions the member at position {@code index} of {@link #memberIds()}
   * gets: {@link #countOf} without the member-id search.
   *
   * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, memberIds().size())}
   */
  public int countAt(int index) {
    return partitions[index].length;
  }

  /**
   * Returns how many of the partitions the member at position {@code index} of
   * {@link #memberIds()} gets it already owned: {@link #keptCountOf} without the member-id search.
   *
   * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, memberIds().size())}
   */
  public int keptCountAt(int index) {
    return kept[index];
  }

  /** Receives one member's partitions of one topic as a range of an array; see {@link #forEachTopicAt}. */
  @FunctionalInterface
  public interface TopicRanges {
    /**
     * @param topicIndex the topic's position in {@link #topicNames()}
     * @param partitions an array holding the member's partition numbers of all its topics, topic
     *     after topic; fresh for each {@link #forEachTopicAt} call and not changed by the result
     *     afterwards, so the receiver may keep it (and change it)
     * @param from the first index of this topic's partition numbers, ascending
     * @param to one past the last index; {@code to > from}
     */
    void accept(int topicIndex, int[] partitions, int from, int to);
  }

  /**
   * Calls {@code action} once for each topic of which the member at position {@code index} of
   * {@link #memberIds()} gets partitions, in topic order, with those partitions as a range of one
   * array for all its topics ({@link #forEachTopic} without an array per topic and the member-id
   * search).
   *
   * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, memberIds().size())}
   */
  public void forEachTopicAt(int index, TopicRanges action) {
    int[] gps = partitions[index];
    int[] ps = new int[gps.length];
    int j = 0;
    int t = 0;
    while (j < gps.length) {
      while (gps[j] >= topicOffset[t + 1]) {
        t++;
      }
      int start = j;
      int end = topicOffset[t + 1];
      int base = topicOffset[t];
      while (j < gps.length && gps[j] < end) {
        ps[j] = gps[j] - base;
        j++;
      }
      action.accept(t, ps, start, j);
    }
  }

  /**
   * Returns the partitions given to nobody in this rebalance because another member still owns
   * them and must revoke them first (always empty in {@link RebalanceMode#EAGER}). Kafka's
   * cooperative protocol runs a follow-up rebalance after a revocation, which hands them over.
   */
  public Set<PartitionRef> pendingRevocation() {
    return Collections.unmodifiableSet(new TreeSet<>(refs(pending)));
  }

  private List<PartitionRef> refs(int[] gps) {
    List<PartitionRef> out = new ArrayList<>(gps.length);
    int t = 0;
    for (int gp : gps) {
      while (gp >= topicOffset[t + 1]) {
        t++;
      }
      out.add(new PartitionRef(topicNames[t], gp - topicOffset[t]));
    }
    return Collections.unmodifiableList(out);
  }

  /** Equal when both give every member the same partitions and hold back the same ones. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RebalanceResult)) {
      return false;
    }
    RebalanceResult g = (RebalanceResult) o;
    return byMember().equals(g.byMember())
        && pendingRevocation().equals(g.pendingRevocation());
  }

  @Override
  public int hashCode() {
    return byMember().hashCode() * 31 + pendingRevocation().hashCode();
  }

  @Override
  public String toString() {
    Set<PartitionRef> p = pendingRevocation();
    return "RebalanceResult" + byMember() + (p.isEmpty() ? "" : " pending " + p);
  }
}
