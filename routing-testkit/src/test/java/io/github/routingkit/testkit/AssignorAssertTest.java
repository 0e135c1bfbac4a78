package io.github.routingkit.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Runs the assertions against kafka-clients' own assignors, whose properties are documented. */
class AssignorAssertTest {
  private static final List<List<String>> CHURN = List.of(
      List.of("c1", "c2", "c3"), List.of("c1", "c2"), List.of("c1", "c2", "c4", "c5"),
      List.of("c2", "c4", "c5"));

  @Test
  void stickyAssignorsPassEveryCheck() {
    for (ConsumerPartitionAssignor a : List.of(new StickyAssignor(), new CooperativeStickyAssignor())) {
      AssignmentAssertions.assertThat(a).withTopic("orders", 12).withTopic("payments", 5)
          .withMembers("c1", "c2", "c3", "c4")
          .isBalanced()
          .isDeterministicUnderMemberOrder()
          .isStickyAcross(CHURN);
    }
  }

  @Test
  void rangeIsUnbalancedAcrossTopics() {
    // Range assigns each topic separately: 2 topics of 5 partitions, 2 members -> 6 and 4
    assertThatThrownBy(() -> AssignmentAssertions.assertThat(new RangeAssignor())
        .withTopic("a", 5).withTopic("b", 5).withMembers("m1", "m2").isBalanced())
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("not balanced: m1 got 6 partitions")
        .hasMessageContaining("m2 got 4");
  }

  @Test
  void roundRobinIsNotSticky() {
    assertThatThrownBy(() -> AssignmentAssertions.assertThat(new RoundRobinAssignor())
        .withTopic("orders", 12).isStickyAcross(CHURN))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("not sticky")
        .hasMessageContaining("balance requires only");
  }

  /** Deals partitions in the order members appear in the subscription map: order-dependent. */
  static final class ArrivalOrderAssignor implements ConsumerPartitionAssignor {
    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
      List<String> members = new ArrayList<>(groupSubscription.groupSubscription().keySet());
      Map<String, List<TopicPartition>> out = new HashMap<>();
      members.forEach(m -> out.put(m, new ArrayList<>()));
      int i = 0;
      for (String topic : groupSubscription.groupSubscription().get(members.get(0)).topics()) {
        for (int p = 0; p < metadata.partitionCountForTopic(topic); p++) {
          out.get(members.get(i++ % members.size())).add(new TopicPartition(topic, p));
        }
      }
      Map<String, Assignment> result = new HashMap<>();
      out.forEach((m, l) -> result.put(m, new Assignment(l)));
      return new GroupAssignment(result);
    }

    @Override
    public String name() {
      return "arrival-order";
    }
  }

  @Test
  void memberOrderDependenceIsCaught() {
    AssignmentAssertions.assertThat(new ArrivalOrderAssignor()).isBalanced();
    assertThatThrownBy(() -> AssignmentAssertions.assertThat(new ArrivalOrderAssignor())
        .isDeterministicUnderMemberOrder())
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("depends on member order: with members in order [consumer-1,"
            + " consumer-2, consumer-3] consumer-1 gets [topic-0, topic-3, topic-6, topic-9]");
  }
}
