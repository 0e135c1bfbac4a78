package io.github.routingkit.audit;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Named recorders for interceptors that are created by class name (Kafka's
 * {@code interceptor.classes}): register a recorder under a name and give the name in
 * {@code routingkit.audit.recorder}; or give a file in {@code routingkit.audit.log}, and every
 * consumer of the JVM writing to that file shares one {@link JsonLinesAuditRecorder} (closed when
 * the last of them closes); or give a Kafka topic in {@code routingkit.audit.topic}, and every
 * consumer of the JVM writing to that topic of one cluster shares one
 * {@link KafkaTopicAuditRecorder}. Thread-safe.
 */
public final class AuditRecorders {
  private static final Map<String, AuditRecorder> NAMED = new HashMap<>();
  private static final Map<String, Shared> SHARED = new HashMap<>();

  private AuditRecorders() {}

  /**
   * Registers a recorder under a name, replacing any previous one.
   *
   * @throws NullPointerException if either is null
   */
  public static synchronized void register(String name, AuditRecorder recorder) {
    NAMED.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(recorder, "recorder"));
  }

  /** Removes the recorder of a name, if any. */
  public static synchronized void unregister(String name) {
    NAMED.remove(name);
  }

  /**
   * Returns the recorder registered under a name.
   *
   * @throws IllegalArgumentException if none is
   */
  public static synchronized AuditRecorder named(String name) {
    AuditRecorder r = NAMED.get(name);
    if (r == null) {
      throw new IllegalArgumentException("no audit recorder registered under the name '" + name
          + "' (AuditRecorders.register); registered: " + NAMED.keySet());
    }
    return r;
  }

  /** Returns the shared file recorder of a path (opened on first use); release it once. */
  static AuditRecorder openFile(Path file) {
    Path key = file.toAbsolutePath().normalize();
    return openShared("file:" + key, () -> new JsonLinesAuditRecorder(key));
  }

  /** The key under which {@link #openFile} shares the recorder of a path. */
  static String fileKey(Path file) {
    return "file:" + file.toAbsolutePath().normalize();
  }

  /**
   * Returns the recorder shared under {@code key}, created by {@code create} on first use;
   * release it once with {@link #release}.
   */
  static synchronized AuditRecorder openShared(String key,
      java.util.function.Supplier<? extends AuditRecorder> create) {
    Shared s = SHARED.get(key);
    if (s == null) {
      s = new Shared(create.get());
      SHARED.put(key, s);
    }
    s.users++;
    return s.recorder;
  }

  /** Releases one use of a shared recorder; the last release closes it. */
  static void release(String key) {
    AuditRecorder last = null;
    synchronized (AuditRecorders.class) {
      Shared s = SHARED.get(key);
      if (s != null && --s.users == 0) {
        SHARED.remove(key);
        last = s.recorder;
      }
    }
    if (last != null) {
      last.close(); // outside the lock: a topic recorder waits for its queue to drain
    }
  }

  private static final class Shared {
    final AuditRecorder recorder;
    int users;

    Shared(AuditRecorder recorder) {
      this.recorder = recorder;
    }
  }
}
