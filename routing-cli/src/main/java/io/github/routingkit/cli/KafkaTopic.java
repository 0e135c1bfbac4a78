package io.github.routingkit.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Kafka topic read live: partition offsets from {@code Admin.listOffsets} (earliest, latest and,
 * for a window given as a duration, by timestamp), log sizes from {@code Admin.describeLogDirs},
 * and records from a consumer that is assigned the partitions and seeks: no {@code group.id}, so
 * no group is joined and no offset committed.
 *
 * <p>The sample is spread over the partitions in proportion to their record counts in the window
 * (each partition gives {@code limit x its share}), so the sample's per-partition counts are the
 * topic's, scaled; a partition is left when its share is read or its end (the latest offset when
 * the read began) is reached.
 */
final class KafkaTopic implements LiveTopic {
  private final String bootstrap;
  private final String topic;
  private final Window window;
  private final Duration since;
  private final Duration timeout;
  private final Properties clientConfig;
  private final List<String> notes = new ArrayList<>();
  /** The topic's id when it was described: a topic deleted and created again has a new one. */
  private org.apache.kafka.common.Uuid topicId;
  private final Admin admin;
  private int n;
  private long[] earliest;
  private long[] latest;
  private long[] windowStart;
  private List<PartitionSize> sizes;
  private String windowText;

  private KafkaTopic(String bootstrap, String topic, Window window, Duration since,
      Duration timeout, Properties clientConfig) {
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.window = window;
    this.since = since;
    this.timeout = timeout;
    this.clientConfig = clientConfig;
    Properties p = base();
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "routing-analyze-admin");
    try {
      this.admin = Admin.create(p);
    } catch (KafkaException e) {
      throw new KeyInput.InputException("cannot connect to Kafka at " + bootstrap + ": "
          + message(e));
    }
  }

  /**
   * Connects, checks the topic and reads its offsets and sizes.
   *
   * @throws KeyInput.InputException if the broker is unreachable within {@code timeout}, the topic
   *     does not exist or the principal may not describe it
   */
  static KafkaTopic open(String bootstrap, String topic, Window window, Duration since,
      Duration timeout, Properties clientConfig) {
    KafkaTopic t = new KafkaTopic(bootstrap, topic, window, since, timeout, clientConfig);
    try {
      t.describeTopic();
      return t;
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  private Properties base() {
    Properties p = new Properties();
    p.putAll(clientConfig);
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    // a broker that is down should not be retried for longer than the timeout either
    p.putIfAbsent("reconnect.backoff.max.ms", "1000");
    return p;
  }

  private void describeTopic() {
    TopicDescription d = get(admin.describeTopics(List.of(topic)).allTopicNames(), "describe")
        .get(topic);
    topicId = d.topicId();
    List<TopicPartitionInfo> infos = d.partitions();
    n = infos.size();
    if (n > AnalyzeCommand.MAX_PARTITIONS) {
      throw new KeyInput.InputException(describe() + " has " + n + " partitions, analyze lays out"
          + " at most " + AnalyzeCommand.MAX_PARTITIONS);
    }
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      tps.add(new TopicPartition(topic, p));
    }
    earliest = offsets(tps, OffsetSpec.earliest());
    latest = offsets(tps, OffsetSpec.latest());
    windowStart = earliest.clone();
    if (window == Window.SINCE) {
      long ts = System.currentTimeMillis() - since.toMillis();
      long[] at = offsets(tps, OffsetSpec.forTimestamp(ts));
      for (int p = 0; p < n; p++) {
        // -1: no record at or after the timestamp, the window is empty on that partition
        windowStart[p] = at[p] < 0 ? latest[p] : Math.max(earliest[p], at[p]);
      }
    }
    long[] bytes = logSizes(infos);
    List<PartitionSize> list = new ArrayList<>(n);
    for (int p = 0; p < n; p++) {
      list.add(new PartitionSize(p, latest[p] - earliest[p], latest[p] - windowStart[p], bytes[p],
          -1, Double.NaN));
    }
    sizes = List.copyOf(list);
  }

  private long[] offsets(List<TopicPartition> tps, OffsetSpec spec) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (TopicPartition tp : tps) {
      request.put(tp, spec);
    }
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
        get(admin.listOffsets(request).all(), "list the offsets of");
    long[] out = new long[tps.size()];
    for (TopicPartition tp : tps) {
      out[tp.partition()] = result.get(tp).offset();
    }
    return out;
  }

  /** The leader replica's log size per partition; -1 where describeLogDirs could not tell. */
  private long[] logSizes(List<TopicPartitionInfo> infos) {
    long[] bytes = new long[n];
    java.util.Arrays.fill(bytes, -1);
    Set<Integer> brokers = new HashSet<>();
    for (TopicPartitionInfo i : infos) {
      if (i.leader() != null) {
        brokers.add(i.leader().id());
      }
    }
    try {
      Map<Integer, Map<String, LogDirDescription>> dirs =
          admin.describeLogDirs(brokers).allDescriptions()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      for (TopicPartitionInfo i : infos) {
        if (i.leader() == null || !dirs.containsKey(i.leader().id())) {
          continue;
        }
        for (LogDirDescription dir : dirs.get(i.leader().id()).values()) {
          ReplicaInfo r = dir.replicaInfos().get(new TopicPartition(topic, i.partition()));
          if (r != null && !r.isFuture()) {
            bytes[i.partition()] = Math.max(bytes[i.partition()], 0) + r.size();
          }
        }
      }
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      Throwable c = e instanceof ExecutionException ? e.getCause() : e;
      notes.add("partition sizes in bytes unknown: describeLogDirs failed ("
          + (c instanceof AuthorizationException ? "not authorized: it needs DESCRIBE on the"
              + " CLUSTER" : message(c)) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyInput.InputException("interrupted");
    }
    return bytes;
  }

  /** A Kafka producer's partitioner hashes the serialized key: the router check routes bytes. */
  @Override
  public boolean routesKeyBytes() {
    return true;
  }

  @Override
  public String describe() {
    return "kafka topic " + topic + " at " + bootstrap;
  }

  @Override
  public String windowText() {
    return windowText == null ? "" : windowText;
  }

  @Override
  public int partitions() {
    return n;
  }

  @Override
  public List<PartitionSize> sizes() {
    return sizes;
  }

  @Override
  public Window window() {
    return window;
  }

  @Override
  public List<String> notes() {
    return notes;
  }

  @Override
  public ReadResult read(long limit, RecordSink sink, Progress progress) {
    long[] base = window == Window.SINCE ? windowStart : earliest;
    long total = 0;
    for (int p = 0; p < n; p++) {
      total += latest[p] - base[p];
    }
    long[] counts = new long[n];
    for (int p = 0; p < n; p++) {
      counts[p] = latest[p] - base[p];
    }
    long[] quota = quotas(counts, total, limit);
    long[] start = new long[n];
    for (int p = 0; p < n; p++) {
      start[p] = window == Window.NEWEST ? latest[p] - quota[p] : base[p];
    }
    windowText = (window == Window.NEWEST ? "the newest records"
        : window == Window.SINCE ? "records since " + LiveTopic.text(since) + " ago"
        : "from the beginning") + String.format(Locale.ROOT, " (%,d of the %,d in the window)",
            Math.min(total, limit), total);
    Properties p = base();
    p.remove(AdminClientConfig.CLIENT_ID_CONFIG);
    // read-only: no group.id, so no group is joined, nothing is committed
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "routing-analyze");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    p.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
        Long.toString(Math.min(Integer.MAX_VALUE, timeout.toMillis())));
    long read = 0;
    int capped = 0;
    List<Integer> stalled = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
      Map<TopicPartition, Integer> active = new HashMap<>();
      long[] taken = new long[n];
      for (int i = 0; i < n; i++) {
        if (quota[i] > 0) {
          active.put(new TopicPartition(topic, i), i);
        }
      }
      consumer.assign(active.keySet());
      for (Map.Entry<TopicPartition, Integer> e : active.entrySet()) {
        consumer.seek(e.getKey(), start[e.getValue()]);
      }
      long lastRecord = System.nanoTime();
      while (!active.isEmpty()) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
        for (ConsumerRecord<byte[], byte[]> r : records) {
          int i = r.partition();
          if (taken[i] < quota[i] && r.offset() < latest[i]) {
            taken[i]++;
            read++;
            sink.accept(i, key(r.key()), r.key(), Math.max(0, r.serializedKeySize())
                + Math.max(0, r.serializedValueSize()));
            if (read % 10_000 == 0) {
              progress.update(read);
            }
          }
        }
        if (!records.isEmpty()) {
          lastRecord = System.nanoTime();
        }
        List<TopicPartition> done = new ArrayList<>();
        for (Map.Entry<TopicPartition, Integer> e : active.entrySet()) {
          int i = e.getValue();
          if (taken[i] >= quota[i] || consumer.position(e.getKey()) >= latest[i]) {
            done.add(e.getKey());
            if (taken[i] >= quota[i] && quota[i] < latest[i] - start[i]) {
              capped++;
            }
          }
        }
        if (!done.isEmpty()) {
          consumer.pause(done);
          done.forEach(active::remove);
        }
        if (records.isEmpty() && System.nanoTime() - lastRecord > timeout.toNanos()) {
          // records deleted by retention during the read, the topic deleted, or a broker that
          // stopped answering
          stalled.addAll(active.values());
          stalled.sort(null);
          if (!stillExists()) {
            notes.add("topic " + topic + " was deleted during the read: this report covers only"
                + String.format(Locale.ROOT, " the %,d records read before it vanished", read));
          }
          break;
        }
        progress.update(read);
      }
    } catch (AuthorizationException e) {
      throw new KeyInput.InputException("not authorized to read " + describe() + ": "
          + message(e) + " (the principal needs READ and DESCRIBE on the topic; no group is used)");
    } catch (AuthenticationException e) {
      throw new KeyInput.InputException("authentication failed at " + bootstrap + ": "
          + message(e));
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      throw new KeyInput.InputException("Kafka at " + bootstrap + " did not answer within "
          + LiveTopic.text(timeout) + " while reading " + topic + ": " + message(e));
    } catch (KafkaException e) {
      throw new KeyInput.InputException("cannot read " + describe() + ": " + message(e));
    }
    return new ReadResult(read, capped, stalled);
  }

  /**
   * Whether the topic read is still there: false when it is gone, or was deleted and created again
   * (a new topic id, e.g. by auto-creation); true when the cluster cannot tell (then nothing is
   * claimed).
   */
  private boolean stillExists() {
    try {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic);
      return d == null || topicId == null || topicId.equals(d.topicId());
    } catch (ExecutionException e) {
      return !(e.getCause() instanceof UnknownTopicOrPartitionException);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return true;
    }
  }

  /**
   * Each partition's share of a sample of {@code limit} records from partitions holding
   * {@code counts} ({@code total} in all): all of them if the window holds no more than the limit,
   * else {@code limit} in proportion by largest remainder (the floors, then one more for the
   * largest fractional parts, lower partitions first on ties), never more than a partition holds.
   * The quotas add up to {@code min(limit, total)}, so a sample smaller than the partition count
   * still reads records.
   */
  static long[] quotas(long[] counts, long total, long limit) {
    int n = counts.length;
    long[] quota = new long[n];
    if (total <= limit) {
      return counts.clone();
    }
    double[] remainder = new double[n];
    long given = 0;
    for (int p = 0; p < n; p++) {
      double exact = (double) limit * counts[p] / total;
      quota[p] = Math.min(counts[p], (long) Math.floor(exact));
      remainder[p] = quota[p] < counts[p] ? exact - quota[p] : -1;
      given += quota[p];
    }
    Integer[] order = new Integer[n];
    for (int p = 0; p < n; p++) {
      order[p] = p;
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(remainder[b], remainder[a]));
    for (int k = 0; given < limit && k < n; k++) {
      int p = order[k];
      if (remainder[p] >= 0) {
        quota[p]++;
        given++;
      }
    }
    return quota;
  }

  private static String key(byte[] key) {
    if (key == null) {
      return null;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(key)).toString();
    } catch (CharacterCodingException e) {
      // binary keys stay distinct (a replacement character would merge them)
      return "0x" + HexFormat.of().formatHex(key);
    }
  }

  private <T> T get(KafkaFuture<T> future, String what) {
    try {
      // the admin client times out by itself; the extra second only guards against a hang
      return future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    } catch (java.util.concurrent.TimeoutException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyInput.InputException("interrupted");
    }
  }

  private KeyInput.InputException translate(Throwable c, String what) {
    if (c instanceof UnknownTopicOrPartitionException || c instanceof InvalidTopicException) {
      return new KeyInput.InputException(describe() + ": no such topic"
          + (c instanceof InvalidTopicException ? " (invalid name: " + message(c) + ")" : ""));
    }
    if (c instanceof TopicAuthorizationException) {
      return new KeyInput.InputException("not authorized to " + what + " " + describe()
          + " (the principal needs DESCRIBE and READ on the topic)");
    }
    if (c instanceof AuthorizationException) {
      return new KeyInput.InputException("not authorized to " + what + " " + describe() + ": "
          + message(c));
    }
    if (c instanceof AuthenticationException) {
      return new KeyInput.InputException("authentication failed at " + bootstrap + ": "
          + message(c));
    }
    if (c instanceof org.apache.kafka.common.errors.TimeoutException) {
      return unreachable(c);
    }
    return new KeyInput.InputException("cannot " + what + " " + describe() + ": " + message(c));
  }

  private KeyInput.InputException unreachable(Throwable c) {
    return new KeyInput.InputException("cannot reach Kafka at " + bootstrap + " within "
        + LiveTopic.text(timeout) + " (is the broker up and --bootstrap-server right? raise"
        + " --timeout for a slow cluster)");
  }

  /**
   * The exception's class and message, and its root cause's when there is one: the client wraps
   * the reason ({@code ConfigException: Invalid url in bootstrap.servers: localhost}) in a
   * {@code KafkaException: Failed to create new KafkaAdminClient} that alone says nothing.
   */
  static String message(Throwable e) {
    Throwable root = e;
    for (int i = 0; root.getCause() != null && root.getCause() != root && i < 20; i++) {
      root = root.getCause();
    }
    return root == e ? text(e) : text(e) + " (cause: " + text(root) + ")";
  }

  private static String text(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(2));
  }
}
