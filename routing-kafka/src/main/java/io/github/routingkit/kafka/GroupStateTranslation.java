package io.github.routingkit.kafka;

import io.github.routingkit.assignment.AssignableTopic;
import io.github.routingkit.assignment.AssignmentPolicy;
import io.github.routingkit.assignment.GroupMember;
import io.github.routingkit.assignment.OwnedPartitions;
import io.github.routingkit.assignment.PartitionRef;
import io.github.routingkit.assignment.RebalanceMode;
import io.github.routingkit.assignment.RebalanceResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one translation both Kafka assignors share: group members and topic metadata, in whatever
 * form the Kafka API gives them, into {@link AssignmentPolicy} inputs, and the result back. The
 * adapters only read their API's types and call {@link #member} and {@link #topic}. Logs at debug
 * which {@link io.github.routingkit.assignment.GroupShape} the policy recognised (and so which of
 * its builders ran), as Kafka's {@code UniformAssignor} logs its homogeneous or heterogeneous
 * choice.
 *
 * <p>Not thread-safe; one per {@code assign} call.
 */
final class GroupStateTranslation {
  private static final Logger LOG = LoggerFactory.getLogger(GroupStateTranslation.class);

  private final List<GroupMember> members = new ArrayList<>();
  private final List<AssignableTopic> topics = new ArrayList<>();

  /**
   * Adds a member.
   *
   * @param owned partitions the member claims; claims with a null topic or a negative partition
   *     (a broken client) are dropped
   */
  void member(String memberId, String instanceId, String rackId, int weight, Set<String> topicNames,
      List<PartitionRef> owned, int generation) {
    members.add(new GroupMember(memberId, instanceId, rackId, weight, topicNames, owned, generation));
  }

  /**
   * Adds a topic with partitions {@code 0..count-1}; {@code racksOf.apply(p)} gives the racks
   * holding a replica of partition {@code p} (null or empty if unknown); a null {@code racksOf}
   * means unknown for every partition (what an adapter passes when no member has a rack, since the
   * policy then reads no replica racks). A topic without partitions is skipped.
   *
   * @return the topic's position (what {@link #assign(RebalanceMode, OwnedPartitions)} claims
   *     refer to), or -1 if it was skipped
   */
  int topic(String name, int count, IntFunction<Set<String>> racksOf, int weight) {
    if (count <= 0) {
      return -1;
    }
    if (racksOf == null) {
      topics.add(new AssignableTopic(name, count, List.of(), weight));
      return topics.size() - 1;
    }
    Set<String>[] racks = newSetArray(count);
    boolean any = false;
    for (int p = 0; p < count; p++) {
      Set<String> r = racksOf.apply(p);
      racks[p] = r == null ? Set.of() : r;
      any |= !racks[p].isEmpty();
    }
    topics.add(new AssignableTopic(name, count, any ? Arrays.asList(racks) : List.of(), weight));
    return topics.size() - 1;
  }

  RebalanceResult assign(RebalanceMode mode) {
    return logged(AssignmentPolicy.assign(members, topics, mode), mode);
  }

  /**
   * Assigns with further claims per member (position in the order of {@link #member} calls) and
   * topic position (as {@link #topic} returned it).
   */
  RebalanceResult assign(RebalanceMode mode, OwnedPartitions owned) {
    return logged(AssignmentPolicy.assign(members, topics, owned, mode), mode);
  }

  private RebalanceResult logged(RebalanceResult result, RebalanceMode mode) {
    LOG.debug("Assigned {} members and {} topics ({}) as a group of shape {}", members.size(),
        topics.size(), mode, result.shape());
    return result;
  }

  @SuppressWarnings("unchecked")
  private static Set<String>[] newSetArray(int n) {
    return (Set<String>[]) new Set<?>[n];
  }
}
