package io.github.routingkit.examples;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.pulsar.FailoverSwitchBarrier;
import io.github.routingkit.pulsar.PulsarRouting;
import io.github.routingkit.pulsar.SwitchMarkers;
import io.github.routingkit.switching.SwitchPlan;
import io.github.routingkit.testbrokers.EmbeddedPulsar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pulsar.client.api.BatchReceivePolicy;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.ConsumerEventListener;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;

/**
 * The Pulsar counterpart of {@link KafkaSwitchRun}: producer instances routed by
 * {@code PulsarRouting.customPartition} follow a canary schedule and restart when told; a marker
 * sender marks each step at its settle instant; consumers of one Failover subscription on the
 * partitioned topic run a receive loop with a {@link FailoverSwitchBarrier} (which acknowledges
 * what business code saw), and are killed, restarted and added when told. Deliveries go to a
 * {@link SwitchRunCheck}, with a per-partition ownership epoch from the failover events.
 * {@code -Droutingkit.switch.barrier=single-consumer|none} as for Kafka.
 */
final class PulsarSwitchRun extends SwitchRunBase implements AutoCloseable {
  private final PulsarClient client;
  final String topic;
  private final String subscription;
  final RoutingSpec spec;
  final SwitchPlan plan;
  final KafkaSwitchRun.Barrier barrier;
  /**
   * How long the failover news take from the client's listener to each barrier, in order
   * ({@code -Droutingkit.switch.newsDelayMillis}, default 500): as on a busy machine, where the
   * client's listener thread runs late, some messages dispatched after a failover come first.
   */
  static final long NEWS_DELAY_MILLIS = Long.getLong("routingkit.switch.newsDelayMillis", 500);
  private final EmbeddedPulsar pulsar;
  private final ScheduledExecutorService news = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "pulsar-failover-news");
    t.setDaemon(true);
    return t;
  });
  private final List<Instance> producers = new ArrayList<>();
  private final List<Member> allMembers = new CopyOnWriteArrayList<>();
  /** What each member's barrier held, skipped and counted when it ended. */
  private final List<String> ended = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong epochs = new AtomicLong();
  private volatile boolean producing = true;

  PulsarSwitchRun(EmbeddedPulsar pulsar, String topic, Map<String, String> routing,
      int partitions, KafkaSwitchRun.Barrier barrier) throws PulsarClientException {
    super("pulsar");
    this.pulsar = pulsar;
    this.client = PulsarClient.builder().serviceUrl(pulsar.brokerServiceUrl()).build();
    this.topic = topic;
    this.subscription = "orders";
    this.spec = RoutingSpec.parse(routing);
    this.plan = spec.switchPlan(partitions);
    this.barrier = barrier;
  }

  void startProducers(int instances, int keys, long roundMillis) {
    for (int i = 0; i < instances; i++) {
      List<String> own = new ArrayList<>();
      for (int k = i; k < keys; k += instances) {
        own.add("key-" + k);
      }
      Instance p = new Instance(own, roundMillis);
      producers.add(p);
      thread("producer-" + i, p::run);
    }
  }

  void restartProducer(int i, long downMillis) {
    producers.get(i).restartFor = downMillis;
  }

  void stopProducers() {
    producing = false;
  }

  private Producer<String> producer() throws PulsarClientException {
    return PulsarRouting.customPartition(client.newProducer(Schema.STRING).topic(topic), spec)
        .create();
  }

  private final class Instance {
    final List<String> keys;
    final long roundMillis;
    final Map<String, Integer> next = new HashMap<>();
    volatile long restartFor = -1;

    Instance(List<String> keys, long roundMillis) {
      this.keys = keys;
      this.roundMillis = roundMillis;
    }

    void run() {
      try {
        Producer<String> producer = producer();
        try {
          while (producing) {
            for (String key : keys) {
              int seq = next.merge(key, 1, Integer::sum) - 1;
              check.sent(key, seq);
              producer.newMessage().key(key).value(Integer.toString(seq)).sendAsync()
                  .whenComplete((id, e) -> {
                    if (e == null) {
                      check.acked(key, seq, ((MessageIdAdv) id).getPartitionIndex());
                    } else {
                      check.failed(key, seq, new RuntimeException(e));
                    }
                  });
            }
            sleep(roundMillis);
            long down = restartFor;
            if (down >= 0) {
              restartFor = -1;
              producer.flush();
              producer.close(); // every message sent is acknowledged or failed by now
              producerRestarts.incrementAndGet();
              sleep(down);
              producer = producer();
            }
          }
          producer.flush();
        } finally {
          producer.close();
        }
      } catch (PulsarClientException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  void startMarkerSender() {
    thread("markers", () -> {
      for (int i = 0; i < plan.steps(); i++) {
        until(plan.settleInstant(i));
        try {
          SwitchMarkers.send(client, topic, plan.generation(), plan.stepNumber(i));
        } catch (PulsarClientException e) {
          throw new IllegalStateException(e);
        }
      }
    });
  }

  @Override
  RunMember newMember(String name) {
    Member m = new Member(name);
    allMembers.add(m);
    return m;
  }

  /**
   * What to look at when records are missing: per partition the subscription's backlog and
   * active consumer (a backlog means the broker still has them), then each running member's
   * barrier (held, skipped, counts, partitions active) and what the ended ones left.
   */
  String diagnosis() {
    StringBuilder out = new StringBuilder("broker:");
    for (int p = 0; p < plan.numPartitions(); p++) {
      out.append(" p").append(p).append(' ');
      try {
        var sub = pulsar.admin().topics().getStats(topic + "-partition-" + p).getSubscriptions()
            .get(subscription);
        out.append("backlog ").append(sub.getMsgBacklog()).append(", active ")
            .append(sub.getActiveConsumerName()).append(';');
      } catch (Exception e) {
        out.append(e).append(';');
      }
    }
    out.append(" members:");
    for (Member m : allMembers) {
      FailoverSwitchBarrier<String> b = m.current;
      if (m.running && b != null) {
        out.append(' ').append(m.name).append(" held ").append(b.held()).append(", skipped ")
            .append(b.skipped()).append(", active ").append(m.epoch.keySet()).append(", ")
            .append(b.counts()).append(';');
      }
    }
    return out.append(" ended: ").append(ended).toString();
  }

  private final class Member extends RunMember {
    final Map<Integer, Long> epoch = new ConcurrentHashMap<>();
    volatile FailoverSwitchBarrier<String> current;

    Member(String name) {
      super(name);
    }

    @Override
    @SuppressWarnings("deprecation")
    void run() {
      try {
        FailoverSwitchBarrier<String> b = FailoverSwitchBarrier.builder(client, topic,
            subscription, plan).timing(Duration.ofMillis(300), Duration.ofSeconds(15))
            .build(Schema.STRING);
        current = b;
        ConsumerEventListener events = b.eventListener();
        Consumer<String> consumer = client.newConsumer(Schema.STRING).topic(topic)
            .subscriptionName(subscription).subscriptionType(SubscriptionType.Failover)
            .consumerName(name + "-" + memberStarts.get())
            .acknowledgmentGroupTime(0, TimeUnit.MILLISECONDS)
            .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
            .batchReceivePolicy(BatchReceivePolicy.builder().maxNumMessages(200)
                .timeout(100, TimeUnit.MILLISECONDS).build())
            .consumerEventListener(new ConsumerEventListener() {
              private static final long serialVersionUID = 1L;

              @Override
              public void becameActive(Consumer<?> c, int partition) {
                epoch.put(partition, epochs.incrementAndGet());
                news.schedule(() -> events.becameActive(c, partition), NEWS_DELAY_MILLIS,
                    TimeUnit.MILLISECONDS);
              }

              @Override
              public void becameInactive(Consumer<?> c, int partition) {
                epoch.remove(partition);
                news.schedule(() -> events.becameInactive(c, partition), NEWS_DELAY_MILLIS,
                    TimeUnit.MILLISECONDS);
              }
            }).subscribe();
        io.github.routingkit.SwitchBarrier<Message<String>> single =
            new io.github.routingkit.SwitchBarrier<>(plan.oldRouter(), plan.newRouter(),
                plan.numPartitions(), (p, g, s) -> {});
        try {
          while (running) {
            var batch = consumer.batchReceive();
            if (barrier == KafkaSwitchRun.Barrier.GROUP) {
              b.forEach(consumer, batch, this::deliver);
              maxWaiting.accumulateAndGet(b.held() + b.skipped(), Math::max);
            } else {
              List<Message<String>> all = new ArrayList<>();
              batch.forEach(all::add);
              if (barrier == KafkaSwitchRun.Barrier.SINGLE_CONSUMER) {
                SwitchMarkers.forEach(all, single, this::deliver);
              } else {
                all.stream().filter(m -> SwitchMarkers.marker(m) == null).forEach(this::deliver);
              }
              consumer.acknowledgeAsync(batch);
            }
          }
          ended.add(name + (kill ? " killed" : " stopped") + ": held " + b.held()
              + ", skipped " + b.skipped() + ", " + b.counts());
          if (kill) {
            b.abandon();
          }
        } finally {
          consumer.close();
          b.close();
        }
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }

    private void deliver(Message<String> m) {
      sleep(slowMillis);
      int p = SwitchMarkers.partitionOf(m.getTopicName());
      Long e = epoch.get(p);
      check.delivered(m.getKey(), m.getValue(), p, -1, e == null ? -1 : e, name);
    }
  }

  @Override
  public void close() throws Exception {
    producing = false;
    stopAll();
    news.shutdownNow();
    client.close();
  }
}
