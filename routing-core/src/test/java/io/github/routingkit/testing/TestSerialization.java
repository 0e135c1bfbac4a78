package io.github.routingkit.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * Java serialization helpers for the routers' round-trip and tampering tests; shared with the
 * adapters' tests through routing-core's test-jar.
 */
public final class TestSerialization {
  private TestSerialization() {}

  /** Serializes and deserializes {@code value}. */
  @SuppressWarnings("unchecked")
  public static <T extends Serializable> T roundTrip(T value)
      throws IOException, ClassNotFoundException {
    return (T) deserialize(serialize(value));
  }

  public static byte[] serialize(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    return bytes.toByteArray();
  }

  public static Object deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    }
  }

  /**
   * Replaces, in place, the first occurrence of {@code from} in a serialized stream by the
   * same-length {@code to} (UTF-8), to forge a tampered stream.
   *
   * @throws AssertionError if {@code from} does not occur
   */
  public static void replace(byte[] bytes, String from, String to) {
    byte[] f = from.getBytes(StandardCharsets.UTF_8);
    byte[] t = to.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + f.length <= bytes.length; i++) {
      for (int j = 0; j < f.length; j++) {
        if (bytes[i + j] != f[j]) {
          continue outer;
        }
      }
      System.arraycopy(t, 0, bytes, i, t.length);
      return;
    }
    throw new AssertionError(from + " not in the serialized form");
  }
}
