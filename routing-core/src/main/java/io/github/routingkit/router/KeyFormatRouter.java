package io.github.routingkit.router;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.MessageView;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * Routes a byte key by its payload: the bytes behind the schema-registry header that its
 * {@link KeyFormat} names, handed to the wrapped router as a range of the same array (no copy).
 * A key without a valid header is routed whole, as the wrapped router alone would route it (see
 * {@link KeyFormat}). So the same key value serialized under any schema id lands on one partition,
 * the partition the wrapped router gives its payload bytes.
 *
 * <p>Text keys ({@link #partition(CharSequence, int)}, a message whose key the view gives as text)
 * carry no binary header and are routed by the wrapped router unchanged; keyless messages follow
 * the wrapped router's policy.
 *
 * <p>Immutable, thread-safe as the wrapped router is, {@link Serializable} through a proxy (the
 * format's name and the wrapped router). Keyed routing of a {@code byte[]} ({@code partition})
 * allocates nothing beyond what the wrapped router allocates.
 */
public final class KeyFormatRouter extends ForwardingRouter {
  private static final long serialVersionUID = 1L;

  private final KeyFormat format;

  private KeyFormatRouter(KeyFormat format, KeyRouter delegate) {
    super(delegate);
    this.format = Objects.requireNonNull(format, "format");
  }

  /**
   * Returns a router that routes each byte key's payload under {@code format} with
   * {@code delegate}; for {@link KeyFormat#RAW}, {@code delegate} itself.
   *
   * @throws NullPointerException if any argument is null
   */
  public static KeyRouter of(KeyFormat format, KeyRouter delegate) {
    Objects.requireNonNull(delegate, "delegate");
    return Objects.requireNonNull(format, "format") == KeyFormat.RAW
        ? delegate : new KeyFormatRouter(format, delegate);
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    int start = format.payloadStart(key, offset, length);
    return delegate().partition(key, start, offset + length - start, value, numPartitions);
  }

  /**
   * Routes a message: a byte key by its payload, handed to the wrapped router's own
   * {@code partitionOf} (so a router that reads a header or the value still does) as a copy of the
   * payload, allocated once per message on this path only; a text key or no key unchanged.
   */
  @Override
  public <M> int partitionOf(M message, MessageView<M> view, int numPartitions) {
    KeyRouter delegate = delegate();
    if (view.keyText(message) != null) {
      return delegate.partitionOf(message, view, numPartitions);
    }
    byte[] key = view.keyBytes(message);
    if (key == null) {
      return delegate.partitionOf(message, MessageView.withKey(view, null, null), numPartitions);
    }
    int start = format.payloadStart(key, 0, key.length);
    byte[] payload = start == 0 ? key : Arrays.copyOfRange(key, start, key.length);
    return delegate.partitionOf(message, MessageView.withKey(view, null, payload), numPartitions);
  }

  /** Returns the key format. */
  public KeyFormat format() {
    return format;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyFormatRouter
        && ((KeyFormatRouter) o).format == format
        && ((KeyFormatRouter) o).delegate().equals(delegate());
  }

  @Override
  public int hashCode() {
    return 31 * format.hashCode() + delegate().hashCode();
  }

  @Override
  public String toString() {
    return "KeyFormatRouter{format=" + format.id() + ", " + delegate() + '}';
  }

  private Object writeReplace() {
    return new Proxy(format.name(), delegate());
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("KeyFormatRouter is deserialized through its proxy");
  }

  /** Serialized form: the format's name and the wrapped router; rebuilt through {@link #of}. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String format;
    private final KeyRouter delegate;

    Proxy(String format, KeyRouter delegate) {
      this.format = format;
      this.delegate = delegate;
    }

    private Object readResolve() throws InvalidObjectException {
      try {
        return of(KeyFormat.valueOf(format), delegate);
      } catch (IllegalArgumentException | NullPointerException e) {
        InvalidObjectException ex =
            new InvalidObjectException("corrupt KeyFormatRouter: " + e.getMessage());
        ex.initCause(e);
        throw ex;
      }
    }
  }
}
