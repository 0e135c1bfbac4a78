package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.examples.TrackedConsumerGroup.Member;
import io.github.routingkit.testbrokers.EmbeddedKafka;
import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 * A rolling deploy on a real in-process Kafka 4.1 broker that passes through non-equal
 * subscriptions: four consumers read {@code orders} (12 partitions); one after the other, two of
 * them are redeployed subscribing to {@code orders} and {@code payments} (6 partitions) while
 * keyed records flow to both topics. Every record must be consumed once, per-key order must hold,
 * no partition may be owned by two consumers at once, and at the end the group must be balanced by
 * Kafka's criterion (no consumer could take a partition of its topics from one holding two more).
 * Once with the classic protocol and {@link RoutingAssignor}, once with KIP-848 and
 * {@link RoutingGroupAssignor}.
 */
@Tag("broker")
class RollingDeployBrokerTest {
  private static final int MESSAGES = 40_000;
  private static final int KEYS = 400;
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
  void classicCooperativeRollingDeploy() throws Exception {
    run("classic", TrackedConsumerGroup.classicWithRoutingAssignor());
  }

  @Test
  void consumerProtocolRollingDeploy() throws Exception {
    run("consumer", TrackedConsumerGroup.consumerProtocolWithRoutingGroupAssignor());
  }

  private void run(String name, Map<String, Object> protocol) throws Exception {
    String orders = "orders";
    String payments = "payments";
    kafka.createTopic(orders + "-" + name, 12);
    kafka.createTopic(payments + "-" + name, 6);
    List<String> oldSubs = List.of(orders + "-" + name);
    List<String> newSubs = List.of(orders + "-" + name, payments + "-" + name);
    // Keys count per topic: the two topics' records of one key are separate sequences.
    TrackedConsumerGroup g = new TrackedConsumerGroup(kafka.bootstrapServers(), "rolling-" + name, protocol, WAIT,
        r -> r.topic() + "/" + r.key());
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      members.add(g.start("c" + i, oldSubs));
    }
    g.await("4 consumers own all of orders", () -> g.owners().size() == 12
        && members.stream().allMatch(m -> m.owned() > 0));

    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    Map<String, Integer> nextSeq = new HashMap<>();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < MESSAGES; i++) {
        String topic = (i & 1) == 0 ? orders + "-" + name : payments + "-" + name;
        String key = "key-" + (int) ((i * 2_654_435_761L) % KEYS);
        int seq = nextSeq.merge(topic + "/" + key, 1, Integer::sum) - 1;
        producer.send(new ProducerRecord<>(topic, key, Integer.toString(seq)));
        if (i % 100 == 99) {
          Thread.sleep(1);
        }
        // The rolling deploy: c0 then c1 come back subscribed to both topics.
        for (int d = 0; d < 2; d++) {
          if (i == (d + 1) * MESSAGES / 3) {
            Member old = members.get(d);
            old.stop();
            Member redeployed = g.start("c" + d, newSubs);
            members.set(d, redeployed);
            g.await("c" + d + " redeployed gets partitions", () -> redeployed.owned() > 0);
          }
        }
      }
      producer.flush();
    }
    g.await("all records consumed", () -> g.seenCount() >= MESSAGES);
    g.await("all 18 partitions owned and balanced", () -> g.owners().size() == 18 && balanced(members));
    Thread.sleep(500);
    Map<String, Integer> counts = new HashMap<>();
    members.forEach(m -> counts.put(m.name, m.owned()));
    for (Member m : members) {
      m.stop();
    }
    g.assertNoViolations();
    Map<String, Integer> expectNext = g.assertEachKeyInOrderOnce("record");
    assertThat(expectNext).isEqualTo(nextSeq);
    System.out.println("rolling deploy (" + name + "): " + g.seenCount() + " records, final counts " + counts);
  }

  /** Kafka's criterion over the members' current partitions. */
  private static boolean balanced(List<Member> members) {
    for (Member j : members) {
      for (TopicPartition p : j.ownedSet()) {
        for (Member i : members) {
          if (i != j && i.topics().contains(p.topic()) && j.owned() - i.owned() >= 2) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
