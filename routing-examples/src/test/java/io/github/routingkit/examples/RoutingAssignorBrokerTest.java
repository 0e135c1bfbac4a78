package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.examples.TrackedConsumerGroup.Member;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RoutingKit's assignors on a real in-process Kafka 4.1 broker: three consumers read a 12-partition
 * topic while 50,000 keyed messages are produced; a fourth consumer joins, then one leaves. Every
 * message must be consumed exactly once, per-key order must hold, and no partition may be owned by
 * two consumers at once (tracked with rebalance listeners). Once with the classic protocol and the
 * client-side {@link RoutingAssignor} (cooperative), once with the KIP-848 consumer protocol and the
 * broker-side {@link RoutingGroupAssignor}.
 */
@Tag("broker")
class RoutingAssignorBrokerTest {
  private static final int PARTITIONS = 12;
  private static final int MESSAGES = 50_000;
  private static final int KEYS = 600;
  // A deadline for polled conditions, not a sleep: generous so that a loaded 2-core CI machine
  // (broker, 4 consumers and a producer in one JVM) is never the reason for a failure.
  private static final Duration WAIT = Duration.ofSeconds(120);

  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = TrackedConsumerGroup.startBroker();
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void classicCooperativeGroupWithRoutingAssignor() throws Exception {
    run("orders-classic", TrackedConsumerGroup.classicWithRoutingAssignor(), RoutingAssignor.NAME);
  }

  @Test
  void consumerProtocolGroupWithBrokerSideRoutingGroupAssignor() throws Exception {
    run("orders-consumer", TrackedConsumerGroup.consumerProtocolWithRoutingGroupAssignor(), RoutingGroupAssignor.NAME);
  }

  private void run(String topic, Map<String, Object> protocol, String assignorName) throws Exception {
    kafka.createTopic(topic, PARTITIONS);
    String group = topic + "-group";
    TrackedConsumerGroup g = new TrackedConsumerGroup(kafka.bootstrapServers(), group, protocol, WAIT,
        ConsumerRecord::key);
    Map<TopicPartition, String> owners = g.owners();

    List<Member> members = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      members.add(g.start("c" + i, List.of(topic)));
    }
    g.await("3 consumers own all partitions", () -> owners.size() == PARTITIONS
        && members.stream().allMatch(m -> m.owned() > 0));

    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    int[] nextSeq = new int[KEYS];
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < MESSAGES; i++) {
        int k = (int) ((i * 2_654_435_761L) % KEYS);
        producer.send(new ProducerRecord<>(topic, "key-" + k, Integer.toString(nextSeq[k]++)));
        if (i % 100 == 99) {
          Thread.sleep(1); // spread production over the membership changes
        }
        if (i == MESSAGES / 3) {
          Member fourth = g.start("c4", List.of(topic));
          members.add(fourth);
          g.await("the 4th consumer gets partitions", () -> fourth.owned() > 0);
        }
        if (i == 2 * MESSAGES / 3) {
          Member leaving = members.remove(0);
          leaving.stop();
          g.await("the 3 remaining consumers own all partitions", () -> owners.size() == PARTITIONS
              && owners.values().stream().noneMatch(leaving.name::equals));
        }
      }
      producer.flush();
    }
    g.await("all messages consumed", () -> g.seenCount() >= MESSAGES);
    try {
      g.await("3 consumers with 4 partitions each", () -> owners.size() == PARTITIONS
          && members.stream().allMatch(m -> m.owned() == PARTITIONS / 3));
    } catch (AssertionError e) {
      for (Member m : members) {
        System.out.println(m.name + " owned=" + m.owned() + " alive=" + m.thread.isAlive()
            + " assignment=" + m.assignment);
      }
      System.out.println("violations " + g.violations());
      System.out.println(kafka.admin().describeConsumerGroups(List.of(group)).all().get().get(group));
      throw e;
    }
    Thread.sleep(500); // give a duplicate, if any, a chance to show up
    var description = kafka.admin().describeConsumerGroups(List.of(group)).all()
        .get(30, TimeUnit.SECONDS).get(group);
    for (Member m : members) {
      m.stop();
    }

    g.assertNoViolations();
    assertThat(description.partitionAssignor()).isEqualTo(assignorName);
    // Every message once, and each key's messages in the order they were produced.
    Map<String, Integer> expectNext = g.assertEachKeyInOrderOnce("message");
    assertThat(expectNext.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(MESSAGES);
    for (int k = 0; k < KEYS; k++) {
      assertThat(expectNext.get("key-" + k)).isEqualTo(nextSeq[k]);
    }
  }
}
