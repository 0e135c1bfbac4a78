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
 * the last of them closes). Thread-safe.
 */
public final class AuditRecorders {
  private static final Map<String, AuditRecorder> NAMED = new HashMap<>();
  private static final Map<Path, Shared> FILES = new HashMap<>();

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
  static synchronized AuditRecorder openFile(Path file) {
    Path key = file.toAbsolutePath().normalize();
    Shared s = FILES.get(key);
    if (s == null) {
      s = new Shared(new JsonLinesAuditRecorder(key));
      FILES.put(key, s);
    }
    s.users++;
    return s.recorder;
  }

  /** Releases one use of a shared file recorder; the last release closes it. */
  static synchronized void releaseFile(Path file) {
    Path key = file.toAbsolutePath().normalize();
    Shared s = FILES.get(key);
    if (s != null && --s.users == 0) {
      FILES.remove(key);
      s.recorder.close();
    }
  }

  private static final class Shared {
    final JsonLinesAuditRecorder recorder;
    int users;

    Shared(JsonLinesAuditRecorder recorder) {
      this.recorder = recorder;
    }
  }
}
