package io.github.routingkit.audit;

/**
 * Where consumer interceptors put the {@link AuditRecord}s they observe: an in-memory list in
 * tests ({@link InMemoryAuditRecorder}) or an append-only JSON Lines file
 * ({@link JsonLinesAuditRecorder}). Implementations are thread-safe: several consumers may share
 * one, and the order of {@link #record} calls is the observation order.
 */
public interface AuditRecorder extends AutoCloseable {
  /** Records one observed message; must not throw for any record. */
  void record(AuditRecord record);

  /** Writes buffered records out, if any. */
  default void flush() {}

  /** Flushes and releases resources. */
  @Override
  default void close() {
    flush();
  }
}
