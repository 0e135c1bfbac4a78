package io.github.routingkit.router.canary;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.MessageView;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.router.hotkey.HotKeyRouter;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import net.openhft.hashing.LongHashFunction;

/**
 * Routes a deterministic share of keys through a new router and the rest through the old one: a
 * canary rollout by key. A key goes to the new router iff {@code point(key) < share}, where
 * {@link #point(byte[], int, int)} maps the key to {@code [0, 1)} by a hash of its own (XXH3 64
 * with seed {@value #SEED_HEX}, the top 53 bits as a binary fraction), independent of the hash
 * either router partitions by.
 *
 * <ul>
 *   <li><b>Monotone.</b> A key in the canary at share {@code a} is in it at every share
 *       {@code b > a}: raising the share only moves keys from the old router to the new one, never
 *       back, so over a plan 1 % &rarr; 5 % &rarr; 25 % &rarr; 100 % each key switches at most
 *       once; lowering the share is the rollback and moves back exactly the keys that came last.</li>
 *   <li><b>Exact ends.</b> At share 0 every key is routed by the old router, at share 1 by the new
 *       one.</li>
 *   <li><b>Share.</b> The fraction of distinct keys in the canary is {@code share} up to binomial
 *       noise, on every old partition alike (the canary hash is not the routers' hash).</li>
 * </ul>
 *
 * <p>The canary hashes the key bytes as the message carries them (a version prefix included); a
 * text key its UTF-8 encoding, so a String key and its UTF-8 bytes decide alike (each router then
 * routes the text as it routes text). <b>Keyless messages</b> follow the old router's keyless
 * policy; the new router's is never used.
 *
 * <p>Immutable, thread-safe as both routers are, {@link Serializable} through its configuration
 * (rebuilt through the same checks). Keyed routing of a {@code byte[]} allocates nothing beyond
 * what the chosen router allocates; a text key is encoded to UTF-8 once for the canary hash.
 */
public final class CanaryRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;

  /** The seed of the canary hash, "canary" in ASCII; no router hash uses it. */
  public static final long SEED = 0x63616e617279L;
  static final String SEED_HEX = "0x63616e617279";
  static final String SHARE = "routing.canary.share";
  private static final LongHashFunction HASH = LongHashFunction.xx3(SEED);
  private static final double UNIT = 0x1.0p-53;

  private final KeyRouter oldRouter;
  private final KeyRouter newRouter;
  private final double share;
  private final transient boolean needsValue;
  private final transient long claimedMemory;

  private CanaryRouter(KeyRouter oldRouter, KeyRouter newRouter, double share) {
    this.oldRouter = Objects.requireNonNull(oldRouter, "oldRouter");
    this.newRouter = Objects.requireNonNull(newRouter, "newRouter");
    if (!(share >= 0 && share <= 1)) {
      throw new RoutingConfigException(SHARE, share, "must be a share in [0, 1]");
    }
    this.share = share;
    this.needsValue = oldRouter.needsValue() || newRouter.needsValue();
    long claimed = oldRouter.claimedMemoryBytes() + newRouter.claimedMemoryBytes();
    if (claimed > HotKeyRouter.MAX_MEMORY) {
      throw new RoutingConfigException(HotKeyRouter.MEMORY, claimed, "is the detector memory the"
          + " old and the new router would claim in all, must be at most "
          + HotKeyRouter.MAX_MEMORY + " bytes (64 MiB): lower routing.hotkey.memory");
    }
    this.claimedMemory = claimed;
  }

  /**
   * Returns a router that sends the keys with {@code point(key) < share} to {@code newRouter} and
   * every other key, and every keyless message, to {@code oldRouter}.
   *
   * @param share the canary share in {@code [0, 1]}
   * @throws NullPointerException if a router is null
   * @throws RoutingConfigException if {@code share} is not in {@code [0, 1]} (NaN included), or the
   *     two routers together claim more than 64 MiB of detector memory
   */
  public static CanaryRouter of(KeyRouter oldRouter, KeyRouter newRouter, double share) {
    return new CanaryRouter(oldRouter, newRouter, share);
  }

  /**
   * Returns the canary point of a key: a value in {@code [0, 1)}, a multiple of 2^-53, from the
   * top 53 bits of XXH3 64 (seed {@link #SEED}) of the key bytes. The key is in the canary at every
   * share above its point. Allocation-free.
   *
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public static double point(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    return (HASH.hashBytes(key, offset, length) >>> 11) * UNIT;
  }

  /** Returns the canary point of a whole key; see {@link #point(byte[], int, int)}. */
  public static double point(byte[] key) {
    return point(key, 0, key.length);
  }

  /** Returns the canary point of a text key: that of its UTF-8 encoding. */
  public static double point(CharSequence key) {
    return point(key.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Returns whether {@code key} goes through the new router: {@code point(key) < share()}. */
  public boolean inCanary(byte[] key) {
    return point(key) < share;
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    KeyRouter r = point(key, offset, length) < share ? newRouter : oldRouter;
    return value != null && needsValue
        ? r.partition(key, offset, length, value, numPartitions)
        : r.partition(key, offset, length, numPartitions);
  }

  /** Decides on the UTF-8 bytes, then lets the chosen router route the text as text. */
  @Override
  protected int routeText(CharSequence key, int numPartitions) {
    return (point(key) < share ? newRouter : oldRouter).partition(key, numPartitions);
  }

  /**
   * Decides by the message's key (its text's UTF-8 bytes, or its key bytes), then hands the message
   * to the chosen router, so a router that reads a header (a versioned router with its version in
   * a message property) still reads it; the key is read from {@code view} once. A keyless message
   * goes to the old router.
   */
  @Override
  public <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    CharSequence text = view.keyText(message);
    byte[] bytes = text == null ? view.keyBytes(message) : null;
    KeyRouter r;
    if (text != null) {
      r = point(text) < share ? newRouter : oldRouter;
    } else if (bytes != null) {
      r = point(bytes) < share ? newRouter : oldRouter;
    } else {
      r = oldRouter;
    }
    return r.partitionOf(message, MessageView.withKey(view, text, bytes), numPartitions);
  }

  /** Keyless messages follow the old router's policy. */
  @Override
  public int keylessPartition(int numPartitions) {
    return oldRouter.keylessPartition(numPartitions);
  }

  /** Keyless messages follow the old router's policy over the available partitions. */
  @Override
  public int keylessPartition(int numPartitions, AvailablePartitions available) {
    return oldRouter.keylessPartition(numPartitions, available);
  }

  /** Returns the old router's keyless policy. */
  @Override
  public KeylessPolicy keylessPolicy() {
    return oldRouter.keylessPolicy();
  }

  @Override
  public boolean needsValue() {
    return needsValue;
  }

  /** The old and the new router's detector memory, summed (at most 64 MiB). */
  @Override
  public long claimedMemoryBytes() {
    return claimedMemory;
  }

  /** Returns the router of the keys outside the canary and of keyless messages. */
  public KeyRouter oldRouter() {
    return oldRouter;
  }

  /** Returns the router of the keys in the canary. */
  public KeyRouter newRouter() {
    return newRouter;
  }

  /** Returns the canary share, in {@code [0, 1]}. */
  public double share() {
    return share;
  }

  @Override
  public String toString() {
    return "CanaryRouter{share=" + share + ", old=" + oldRouter + ", new=" + newRouter + '}';
  }

  private Object writeReplace() {
    return new Proxy(this);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("CanaryRouter is deserialized through its proxy");
  }

  /** Serialized form: both routers and the share, rebuilt through {@link #of}. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final KeyRouter oldRouter;
    private final KeyRouter newRouter;
    private final double share;

    Proxy(CanaryRouter r) {
      this.oldRouter = r.oldRouter;
      this.newRouter = r.newRouter;
      this.share = r.share;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return of(oldRouter, newRouter, share);
      } catch (RuntimeException e) {
        InvalidObjectException ex = new InvalidObjectException("corrupt CanaryRouter: "
            + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
