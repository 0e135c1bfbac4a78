package io.github.routingkit.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * {@code routing locate} on a Kafka topic, through the admin API only: the partitions and their
 * leaders from {@code describeTopics}, the consumer groups from {@code listGroups} (consumer
 * groups of both protocols: classic and the consumer protocol of KIP-848),
 * {@code describeConsumerGroups} for the member assigned the key's partition (and, for a
 * consumer-protocol group, the member its target assignment moves it to),
 * {@code listConsumerGroupOffsets} and {@code listOffsets} for the lag (log end offset minus the
 * group's committed offset).
 */
final class KafkaLocate implements LocateTarget {
  private final String bootstrap;
  private final String topic;
  private final List<String> groups;
  private final Duration timeout;
  private final Admin admin;
  private final List<String> notes = new ArrayList<>();
  private List<TopicPartitionInfo> infos;

  private KafkaLocate(String bootstrap, String topic, List<String> groups, Duration timeout,
      Properties clientConfig) {
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.groups = groups;
    this.timeout = timeout;
    Properties p = new Properties();
    p.putAll(clientConfig);
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "routing-locate-admin");
    int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.putIfAbsent("reconnect.backoff.max.ms", "1000");
    try {
      this.admin = Admin.create(p);
    } catch (KafkaException e) {
      throw new KeyInput.InputException("cannot connect to Kafka at " + bootstrap + ": "
          + KafkaTopic.message(e));
    }
  }

  /**
   * Connects and describes the topic.
   *
   * @param groups the groups to report, or null for every consumer group reading the topic
   * @throws KeyInput.InputException if the broker is unreachable within {@code timeout}, the topic
   *     does not exist or the principal may not describe it
   */
  static KafkaLocate open(String bootstrap, String topic, List<String> groups, Duration timeout,
      Properties clientConfig) {
    KafkaLocate k = new KafkaLocate(bootstrap, topic, groups, timeout, clientConfig);
    try {
      k.infos = k.get(k.admin.describeTopics(List.of(topic)).allTopicNames(), "describe")
          .get(topic).partitions();
      return k;
    } catch (RuntimeException e) {
      k.close();
      throw e;
    }
  }

  @Override
  public String describe() {
    return "kafka topic " + topic + " at " + bootstrap;
  }

  @Override
  public int partitions() {
    return infos.size();
  }

  @Override
  public Fact leader(int partition) {
    TopicPartitionInfo info = infos.get(partition);
    Node leader = info.leader();
    Map<String, Object> j = new LinkedHashMap<>();
    List<Integer> replicas = info.replicas().stream().map(Node::id).collect(Collectors.toList());
    List<Integer> isr = info.isr().stream().map(Node::id).collect(Collectors.toList());
    String text;
    if (leader == null || leader.isEmpty()) {
      j.put("broker", null);
      text = "none: partition " + partition + " is offline";
    } else {
      j.put("broker", leader.id());
      j.put("host", leader.host() + ":" + leader.port());
      j.put("rack", leader.rack());
      text = "broker " + leader.id() + " at " + leader.host() + ":" + leader.port()
          + (leader.hasRack() ? " (rack " + leader.rack() + ")" : "");
    }
    j.put("replicas", replicas);
    j.put("isr", isr);
    return new Fact(text + "; replicas " + replicas + ", in sync " + isr, j);
  }

  @Override
  public List<Fact> readers(int partition, byte[] key) {
    TopicPartition tp = new TopicPartition(topic, partition);
    List<String> ids;
    if (groups != null) {
      ids = new ArrayList<>(new java.util.LinkedHashSet<>(groups));
    } else {
      Collection<GroupListing> listed = get(admin.listGroups(ListGroupsOptions.forConsumerGroups())
          .all(), "list the consumer groups of");
      ids = listed.stream().map(GroupListing::groupId).sorted().collect(Collectors.toList());
    }
    if (ids.isEmpty()) {
      return List.of();
    }
    Map<String, ConsumerGroupDescription> described = new LinkedHashMap<>();
    Map<String, KafkaFuture<ConsumerGroupDescription>> futures =
        admin.describeConsumerGroups(ids).describedGroups();
    for (String id : ids) {
      try {
        described.put(id, get(futures.get(id), "describe group " + id + " of"));
      } catch (GroupMissing e) {
        if (groups != null) {
          throw new KeyInput.InputException("--group " + id + ": no such consumer group at "
              + bootstrap);
        }
      }
    }
    Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
    described.keySet().forEach(id -> specs.put(id,
        new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(tp))));
    Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = specs.isEmpty() ? Map.of()
        : get(admin.listConsumerGroupOffsets(specs).all(), "read the committed offsets on");
    long end = get(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all(), "list the offsets of")
        .get(tp).offset();
    List<Fact> out = new ArrayList<>();
    for (ConsumerGroupDescription g : described.values()) {
      OffsetAndMetadata c = committed.getOrDefault(g.groupId(), Map.of()).get(tp);
      boolean readsTopic = g.members().stream().anyMatch(m -> m.assignment().topicPartitions()
          .stream().anyMatch(t -> t.topic().equals(topic)));
      if (groups == null && !readsTopic && c == null) {
        continue;
      }
      if (groups != null && g.groupState() == GroupState.DEAD && c == null) {
        throw new KeyInput.InputException("--group " + g.groupId() + ": no such consumer group at "
            + bootstrap);
      }
      out.add(group(g, tp, c, end));
    }
    return out;
  }

  private static Fact group(ConsumerGroupDescription g, TopicPartition tp, OffsetAndMetadata c,
      long end) {
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("group", g.groupId());
    String protocol = g.type() == null ? "unknown" : g.type().toString();
    j.put("protocol", protocol);
    j.put("state", String.valueOf(g.groupState()));
    j.put("groupEpoch", g.groupEpoch().orElse(null));
    MemberDescription owner = owner(g.members(), tp, MemberDescription::assignment);
    MemberDescription target = owner(g.members(), tp,
        m -> m.targetAssignment().orElse(m.assignment()));
    StringBuilder t = new StringBuilder("group ").append(g.groupId()).append(" (").append(protocol)
        .append(", ").append(g.groupState()).append(g.groupEpoch().map(e -> ", epoch " + e)
            .orElse("")).append("): ");
    j.put("member", owner == null ? null : member(owner));
    if (owner == null) {
      t.append("no member is assigned partition ").append(tp.partition());
    } else {
      t.append("member ").append(owner.consumerId()).append(" (client ")
          .append(owner.clientId()).append(", host ").append(owner.host())
          .append(owner.groupInstanceId().map(i -> ", instance " + i).orElse(""))
          .append(owner.memberEpoch().map(e -> ", member epoch " + e).orElse("")).append(')');
    }
    if (target != null && target != owner) {
      j.put("targetMember", member(target));
      t.append(", moving to member ").append(target.consumerId()).append(" (target assignment)");
    }
    j.put("committedOffset", c == null ? null : c.offset());
    j.put("endOffset", end);
    j.put("lag", c == null ? null : Math.max(0, end - c.offset()));
    t.append(c == null ? "; no committed offset, end offset " + end
        : "; committed " + c.offset() + ", end " + end + ", lag " + Math.max(0, end - c.offset()));
    return new Fact(t.toString(), j);
  }

  private static Map<String, Object> member(MemberDescription m) {
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("memberId", m.consumerId());
    j.put("clientId", m.clientId());
    j.put("host", m.host());
    j.put("groupInstanceId", m.groupInstanceId().orElse(null));
    j.put("memberEpoch", m.memberEpoch().orElse(null));
    j.put("assignment", new TreeSet<>(m.assignment().topicPartitions().stream()
        .map(TopicPartition::toString).collect(Collectors.toList())));
    return j;
  }

  private static MemberDescription owner(Collection<MemberDescription> members, TopicPartition tp,
      java.util.function.Function<MemberDescription, MemberAssignment> assignment) {
    for (MemberDescription m : members) {
      if (assignment.apply(m).topicPartitions().contains(tp)) {
        return m;
      }
    }
    return null;
  }

  @Override
  public List<String> notes() {
    return notes;
  }

  /** A group the coordinator does not know (the consumer protocol's coordinator says so). */
  private static final class GroupMissing extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  private <T> T get(KafkaFuture<T> future, String what) {
    try {
      return future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    } catch (java.util.concurrent.TimeoutException e) {
      throw unreachable();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyInput.InputException("interrupted");
    }
  }

  private RuntimeException translate(Throwable c, String what) {
    if (c instanceof GroupIdNotFoundException) {
      return new GroupMissing();
    }
    if (c instanceof UnknownTopicOrPartitionException || c instanceof InvalidTopicException) {
      return new KeyInput.InputException(describe() + ": no such topic");
    }
    if (c instanceof TopicAuthorizationException) {
      return new KeyInput.InputException("not authorized to " + what + " " + describe()
          + " (the principal needs DESCRIBE on the topic)");
    }
    if (c instanceof GroupAuthorizationException) {
      return new KeyInput.InputException("not authorized to " + what + " " + describe()
          + " (the principal needs DESCRIBE on the group; name the groups it may see with"
          + " --group): " + KafkaTopic.message(c));
    }
    if (c instanceof AuthorizationException) {
      return new KeyInput.InputException("not authorized to " + what + " " + describe() + ": "
          + KafkaTopic.message(c));
    }
    if (c instanceof AuthenticationException) {
      return new KeyInput.InputException("authentication failed at " + bootstrap + ": "
          + KafkaTopic.message(c));
    }
    if (c instanceof org.apache.kafka.common.errors.TimeoutException) {
      return unreachable();
    }
    return new KeyInput.InputException("cannot " + what + " " + describe() + ": "
        + KafkaTopic.message(c));
  }

  private KeyInput.InputException unreachable() {
    return new KeyInput.InputException("cannot reach Kafka at " + bootstrap + " within "
        + LiveTopic.text(timeout) + " (is the broker up and --bootstrap-server right? raise"
        + " --timeout for a slow cluster)");
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(2));
  }
}
