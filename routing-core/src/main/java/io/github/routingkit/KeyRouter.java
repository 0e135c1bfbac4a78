package io.github.routingkit;

import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.hotkey.HotKeyRouter;

import java.io.Serializable;

/**
 * Decides the partition of a message from its key and the topic's partition count: the write side
 * of routing (key &rarr; partition), shared by the Kafka and the Pulsar adapters.
 *
 * <p><b>Contract.</b> Every method returns a partition in {@code [0, numPartitions)} or throws; no
 * implementation ever returns an out-of-range value. For a non-null key the result is a pure
 * function of (key bytes, {@code numPartitions}, the router's configuration): the same key and count
 * give the same partition on every call, in every thread, on every instance built from an equal
 * configuration, and after a serialization round trip. A {@code null} key is a <em>keyless</em>
 * message and is placed by the router's {@link KeylessPolicy}, which may keep state (a round-robin
 * counter) but never affects keyed messages. The one documented exception to purity is
 * {@link HotKeyRouter} with online detection or a load-based / round-robin choice: the partition of
 * a <em>hot</em> key's message then depends on earlier traffic (it stays among the key's
 * candidates); every other key is still routed purely.
 *
 * <p><b>Thread-safety.</b> Implementations are immutable apart from the keyless policy's state,
 * thread-safe, and {@link Serializable}. Keyed routing of a {@code byte[]} key allocates nothing;
 * a String key may be encoded to UTF-8 once (see {@link HashScheme}).
 *
 * <p><b>String keys.</b> {@link #partition(CharSequence, int)} routes the UTF-8 encoding of the
 * characters (exactly what {@code String.getBytes(StandardCharsets.UTF_8)} produces, including the
 * {@code '?'} substitution for unpaired surrogates), so a String key and
 * its UTF-8 bytes land on the same partition. The platform charset is never used. One exception:
 * {@link HashScheme#PULSAR_JAVA_STRING} is defined on UTF-16 text (as Pulsar hashes
 * {@code String.hashCode()}), so a String holding an unpaired surrogate and its UTF-8 bytes (where
 * the surrogate became {@code '?'}) may land on different partitions; well-formed text does not.
 */
public interface KeyRouter extends Serializable {

  /**
   * Returns the partition of a message with the given key.
   *
   * @param key the serialized key; {@code null} means a keyless message (keyless policy); an empty
   *     array is a key like any other and is hashed the way the client hashes it
   * @param numPartitions the topic's partition count, at least 1
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  int partition(byte[] key, int numPartitions);

  /**
   * Returns the partition of a message whose key is {@code length} bytes of {@code key} starting at
   * {@code offset}; equal to {@code partition(Arrays.copyOfRange(key, offset, offset + length), n)}.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  int partition(byte[] key, int offset, int length, int numPartitions);

  /**
   * Returns the partition of a message whose key is the UTF-8 encoding of {@code key}; the same
   * partition as {@link #partition(byte[], int)} on {@code key.toString().getBytes(UTF_8)} (for
   * {@link HashScheme#PULSAR_JAVA_STRING}: unless {@code key} holds an unpaired surrogate, see the
   * class comment).
   *
   * @param key the key text; {@code null} means a keyless message
   * @param numPartitions the topic's partition count, at least 1
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  int partition(CharSequence key, int numPartitions);

  /**
   * Returns the partition of a message with the given key and value. Routers whose choice can
   * depend on the value (a {@link HotKeyRouter} choosing among a hot key's candidates by a hash of
   * the value) override this; for every other router it equals {@link #partition(byte[], int)}, so
   * adapters may always call it.
   *
   * @param key the serialized key; {@code null} means a keyless message
   * @param value the serialized value, may be {@code null}
   * @param numPartitions the topic's partition count, at least 1
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  default int partition(byte[] key, byte[] value, int numPartitions) {
    return partition(key, numPartitions);
  }

  /**
   * Returns the partition of a message whose key is {@code length} bytes of {@code key} from
   * {@code offset}, with the given value: equal to
   * {@code partition(Arrays.copyOfRange(key, offset, offset + length), value, numPartitions)}.
   * Routers that read the value override it to avoid the copy; for the others it is
   * {@link #partition(byte[], int, int, int)}. Composed routers use it to hand a key's range (a
   * version prefix stripped, a tenant's key) down the chain.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  default int partition(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    if (!needsValue()) {
      return partition(key, offset, length, numPartitions);
    }
    java.util.Objects.checkFromIndexSize(offset, length, key.length);
    return partition(java.util.Arrays.copyOfRange(key, offset, offset + length), value,
        numPartitions);
  }

  /**
   * Returns whether {@link #partition(byte[], byte[], int)} can depend on the value, so an adapter
   * whose client must copy the value to hand it over (Pulsar's {@code Message#getData()}) can skip
   * that when it is not needed. False unless a {@link HotKeyRouter} with {@code value-hash} choice is
   * part of the router.
   */
  default boolean needsValue() {
    return false;
  }

  /**
   * Returns the partition of a message whose key is the UTF-8 encoding of {@code key}, with the
   * given value; the text form of {@link #partition(byte[], byte[], int)}.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  default int partition(CharSequence key, byte[] value, int numPartitions) {
    if (key == null || value == null) {
      return partition(key, numPartitions);
    }
    return partition(key.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), value,
        numPartitions);
  }

  /**
   * Returns the partition of a keyless message under this router's {@link KeylessPolicy}.
   *
   * @param numPartitions the number of partitions to choose from, at least 1
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  int keylessPartition(int numPartitions);

  /**
   * Returns the partition of a keyless message when only {@code available} partitions can take it
   * now (Kafka: those with a leader). With no partition available: {@link #keylessPartition(int)}.
   * By default the router draws its keyless choice over all {@code numPartitions} (so a layered
   * router keeps keyless messages in its shared range) again, up to {@code numPartitions} times in
   * all, while its choice is not available; a {@link io.github.routingkit.router.HashRouter} picks
   * among the available partitions directly.
   *
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  default int keylessPartition(int numPartitions, AvailablePartitions available) {
    int p = keylessPartition(numPartitions);
    if (available.count() == 0) {
      return p;
    }
    for (int tries = 1; tries < numPartitions && !available.contains(p); tries++) {
      p = keylessPartition(numPartitions);
    }
    return p;
  }

  /** Returns the policy this router applies to keyless messages. */
  KeylessPolicy keylessPolicy();

  /**
   * Returns the most memory, in bytes, this router's state may claim for hot-key detection,
   * summed over its layers (0 without detection). Detectors are allocated when they first count a
   * message, never at construction or deserialization; a composed router never claims more than
   * {@value io.github.routingkit.router.hotkey.HotKeyRouter#MAX_MEMORY} bytes (64 MiB) in all.
   * Per-partition load counters come on top (see {@code HotKeyRouter}).
   */
  default long claimedMemoryBytes() {
    return 0;
  }

  /**
   * Returns the partition of a client's message read through {@code view}: a text key as
   * {@link #partition(CharSequence, byte[], int)}, key bytes as {@link #partition(byte[], byte[],
   * int)} (the value is read only if {@link #needsValue()}), no key by the keyless policy. Routers
   * that read more of the message (a versioned router taking its version from a header) override
   * it. Adapters call only this, so they never need to know how the router is composed.
   *
   * @param <M> the client's message type
   * @return a partition in {@code [0, numPartitions)}
   * @throws IllegalArgumentException if {@code numPartitions < 1}
   */
  default <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    CharSequence text = view.keyText(message);
    if (text != null) {
      return needsValue()
          ? partition(text, view.value(message), numPartitions)
          : partition(text, numPartitions);
    }
    byte[] key = view.keyBytes(message);
    if (key == null) {
      return keylessPartition(numPartitions);
    }
    return needsValue()
        ? partition(key, view.value(message), numPartitions)
        : partition(key, numPartitions);
  }
}
