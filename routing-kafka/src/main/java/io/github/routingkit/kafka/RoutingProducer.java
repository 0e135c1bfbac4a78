package io.github.routingkit.kafka;

import io.github.routingkit.config.RoutingSpec;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Routes keyed records with RoutingKit and leaves keyless records to kafka-clients' own
 * partitioner: a {@link Producer} decorator for producers <em>without</em> {@code
 * partitioner.class}, so that keyless records keep the built-in adaptive sticky partitioning
 * (queue-length weighting, {@code partitioner.availability.timeout.ms}, KIP-794), which no
 * {@code Partitioner} can reproduce.
 *
 * <pre>{@code
 * Producer<String, Order> producer =
 *     RoutingProducer.wrap(new KafkaProducer<>(props), props, new StringSerializer(), null);
 * }</pre>
 *
 * <p>For each {@code send}:
 * <ul>
 *   <li>a record with a partition set, a null key, or a key its serializer turns into null
 *       bytes is sent unchanged: kafka-clients' built-in partitioner places it;
 *   <li>any other record is sent with the partition {@link RoutingPartitioner} would choose for
 *       it: the same spec, read from the same {@code routing.*} properties with the same checks,
 *       applied to the key serialized by {@code keySerializer} (and the value by {@code
 *       valueSerializer}, only for {@code routing.hotkey.choice=value-hash}) over the topic's
 *       partition count from {@link Producer#partitionsFor}. With the default spec that is the
 *       built-in keyed partition, {@code toPositive(murmur2(keyBytes)) % n}.
 * </ul>
 *
 * <p>What differs from {@code partitioner.class=RoutingPartitioner} (docs/kafka.md): the key is
 * serialized twice (here and in the producer); the first send to a topic waits here for its
 * metadata ({@code max.block.ms}), and a metadata failure (an {@link ApiException} such as a
 * timeout) fails the send through its callback and future, as {@code KafkaProducer.send} does,
 * without reaching the producer's interceptors; {@code ProducerInterceptor.onSend} sees keyed
 * records with their partition already set and cannot re-route them by changing the key.
 *
 * <p>The returned producer forwards every other method, transactions included, to the wrapped
 * one. It is as thread-safe as the wrapped producer, provided the serializers are (Kafka's
 * built-in serializers are).
 */
public final class RoutingProducer {
  private RoutingProducer() {}

  /**
   * Returns {@code producer} with RoutingKit routing for its keyed records.
   *
   * @param producer the producer to decorate; it should have no {@code partitioner.class}
   * @param configs the {@code routing.*} properties (other keys are ignored), usually the
   *     producer's own configs
   * @param keySerializer the producer's key serializer, configured
   * @param valueSerializer the producer's value serializer, configured; needed only with {@code
   *     routing.hotkey.choice=value-hash}, else may be null
   * @return a producer that sends through {@code producer}
   * @throws ConfigException as {@link RoutingPartitioner#configure} throws it, naming the
   *     property, the value and the rule; also if {@code configs} set {@code partitioner.class}
   *     (the decorator exists to keep the built-in partitioner) or the spec needs the value and
   *     {@code valueSerializer} is null
   * @throws NullPointerException if {@code producer}, {@code configs} or {@code keySerializer} is
   *     null
   */
  public static <K, V> Producer<K, V> wrap(Producer<K, V> producer, Map<String, ?> configs,
      Serializer<K> keySerializer, Serializer<V> valueSerializer) {
    Objects.requireNonNull(producer, "producer");
    Objects.requireNonNull(keySerializer, "keySerializer");
    Object partitionerClass = configs.get(ProducerConfig.PARTITIONER_CLASS_CONFIG);
    if (partitionerClass != null) {
      throw new ConfigException(ProducerConfig.PARTITIONER_CLASS_CONFIG, partitionerClass,
          "must not be set with RoutingProducer, which routes keyed records itself so that"
              + " keyless records keep kafka-clients' built-in partitioner; use either"
              + " RoutingProducer or partitioner.class=" + RoutingPartitioner.class.getName());
    }
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(configs);
    if (partitioner.keyedNeedsValue() && valueSerializer == null) {
      throw new ConfigException(RoutingSpec.HOTKEY_CHOICE, "value-hash", "hashes the serialized"
          + " value, so RoutingProducer needs the producer's value serializer");
    }
    Routing<K, V> handler = new Routing<>(producer, partitioner, keySerializer,
        partitioner.keyedNeedsValue() ? valueSerializer : null);
    @SuppressWarnings("unchecked")
    Producer<K, V> proxy = (Producer<K, V>) Proxy.newProxyInstance(
        Producer.class.getClassLoader(), new Class<?>[] {Producer.class}, handler);
    return proxy;
  }

  /**
   * Returns {@code producer} with RoutingKit routing for its keyed records, with the key and value
   * serializers named by {@code key.serializer} and {@code value.serializer} in {@code configs}
   * (a {@link Serializer} instance, a {@code Class} or a class name), instantiated and configured
   * here as the producer does.
   *
   * @throws ConfigException as {@link #wrap(Producer, Map, Serializer, Serializer)}, or if
   *     {@code key.serializer} is missing or names no serializer
   * @throws NullPointerException if {@code producer} or {@code configs} is null
   */
  public static <K, V> Producer<K, V> wrap(Producer<K, V> producer, Map<String, ?> configs) {
    Serializer<K> key = serializer(configs, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, true);
    Serializer<V> value = configs.get(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG) == null ? null
        : serializer(configs, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, false);
    return wrap(producer, configs, key, value);
  }

  @SuppressWarnings("unchecked")
  private static <T> Serializer<T> serializer(Map<String, ?> configs, String key, boolean isKey) {
    Object v = configs.get(key);
    if (v instanceof Serializer) {
      return (Serializer<T>) v;
    }
    Serializer<T> s;
    try {
      if (v instanceof Class) {
        s = Utils.newInstance((Class<?>) v, Serializer.class);
      } else if (v instanceof String) {
        s = Utils.newInstance(((String) v).trim(), Serializer.class);
      } else {
        throw new ConfigException(key, v, "must name the producer's serializer class");
      }
    } catch (ClassNotFoundException | KafkaException e) {
      throw new ConfigException(key, v, "must name a Serializer class: " + e.getMessage());
    }
    s.configure(configs, isKey);
    return s;
  }

  /*
   * A dynamic proxy rather than a delegating class: Producer gains and loses methods between
   * kafka-clients versions (users bring their own), and a proxy forwards them all.
   */
  private static final class Routing<K, V> implements InvocationHandler {
    private final Producer<K, V> delegate;
    private final RoutingPartitioner partitioner;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;

    Routing(Producer<K, V> delegate, RoutingPartitioner partitioner, Serializer<K> keySerializer,
        Serializer<V> valueSerializer) {
      this.delegate = delegate;
      this.partitioner = partitioner;
      this.keySerializer = keySerializer;
      this.valueSerializer = valueSerializer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      int arity = args == null ? 0 : args.length;
      if (name.equals("send") && (arity == 1 || arity == 2)) {
        return send((ProducerRecord<K, V>) args[0], arity == 2 ? (Callback) args[1] : null);
      }
      if (method.getDeclaringClass() == Object.class) {
        switch (name) {
          case "equals":
            return proxy == args[0];
          case "hashCode":
            return System.identityHashCode(proxy);
          default:
            return "RoutingProducer.wrap(" + delegate + ", " + partitioner.spec() + ")";
        }
      }
      try {
        return method.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }

    private Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
      if (record == null || record.partition() != null || record.key() == null) {
        return delegate.send(record, callback);
      }
      byte[] keyBytes = keySerializer.serialize(record.topic(), record.headers(), record.key());
      if (keyBytes == null) {
        return delegate.send(record, callback);
      }
      List<PartitionInfo> partitions;
      try {
        partitions = delegate.partitionsFor(record.topic());
      } catch (ApiException e) {
        // KafkaProducer.send reports these through the callback and the future, not by throwing
        if (callback != null) {
          callback.onCompletion(
              new RecordMetadata(new TopicPartition(record.topic(), -1), -1, -1, -1, -1, -1), e);
        }
        CompletableFuture<RecordMetadata> failed = new CompletableFuture<>();
        failed.completeExceptionally(e);
        return failed;
      }
      int n = partitions.size();
      if (n == 0) {
        throw new IllegalStateException("no partition metadata for topic " + record.topic());
      }
      byte[] valueBytes = valueSerializer == null ? null
          : valueSerializer.serialize(record.topic(), record.headers(), record.value());
      int partition = partitioner.keyedPartition(keyBytes, valueBytes, n);
      return delegate.send(new ProducerRecord<>(record.topic(), partition, record.timestamp(),
          record.key(), record.value(), record.headers()), callback);
    }
  }
}
