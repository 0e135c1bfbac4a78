package io.github.routingkit;

/**
 * How a router reads the parts of a client's message it may need: the key (as bytes or, for
 * clients whose key is text, as text), the value and a header (Pulsar: a message property). An
 * adapter hands a stateless view of its client's message type to
 * {@link KeyRouter#partitionOf(Object, MessageView, int)}, so the router, not the adapter, decides
 * which parts it reads: the value is fetched only by routers that choose by it
 * ({@link KeyRouter#needsValue()}), a header only by a versioned router that reads its version
 * there.
 *
 * <p>Implementations are stateless and thread-safe (one constant per adapter); each method may be
 * called at most once per routed message.
 *
 * @param <M> the client's message type
 */
public interface MessageView<M> {

  /**
   * Returns the key as text for clients whose key is a String (Pulsar's {@code getKey()}), or
   * {@code null} when the message has no key or carries it as bytes only. A router routes the text
   * as {@link KeyRouter#partition(CharSequence, int)} does.
   */
  CharSequence keyText(M message);

  /**
   * Returns the serialized key, or {@code null} for a keyless message. Read only when
   * {@link #keyText} returned {@code null}.
   */
  byte[] keyBytes(M message);

  /** Returns the serialized value (may copy it, so it is read only when a router needs it), or null. */
  byte[] value(M message);

  /** Returns the value of the named header / message property, or {@code null} if it is absent. */
  default String header(M message, String name) {
    return null;
  }

  /**
   * Returns a view of the same messages whose key is given: {@code text} and {@code bytes} (either
   * may be null, as {@link #keyText} and {@link #keyBytes} return them), the value and headers
   * read through {@code view}. For a router that read the key already and hands the message on (it
   * costs no second read), or that hands on a part of the key.
   *
   * @throws NullPointerException if {@code view} is null
   */
  static <M> MessageView<M> withKey(MessageView<M> view, CharSequence text, byte[] bytes) {
    java.util.Objects.requireNonNull(view, "view");
    return new MessageView<>() {
      @Override
      public CharSequence keyText(M message) {
        return text;
      }

      @Override
      public byte[] keyBytes(M message) {
        return bytes;
      }

      @Override
      public byte[] value(M message) {
        return view.value(message);
      }

      @Override
      public String header(M message, String name) {
        return view.header(message, name);
      }
    };
  }
}
