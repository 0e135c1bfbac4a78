package io.github.routingkit.audit;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends records to a file in the {@link AuditLog} format (JSON Lines, UTF-8), through a 64 KiB
 * buffer flushed when full, at most about once a second while records arrive, on {@link #flush()}
 * and on {@link #close()}. A write error is remembered and reported by {@link #error()} instead of
 * failing the consumer; later records are then dropped. Thread-safe.
 */
public final class JsonLinesAuditRecorder implements AuditRecorder {
  private final Path file;
  private final Writer out;
  private final StringBuilder line = new StringBuilder(256);
  private long lastFlush = System.nanoTime();
  private IOException error;
  private boolean closed;

  /**
   * Opens (creating or appending to) a log file.
   *
   * @param file the file
   * @throws UncheckedIOException if it cannot be opened for appending
   */
  public JsonLinesAuditRecorder(Path file) {
    this.file = file;
    try {
      this.out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE),
          StandardCharsets.UTF_8), 1 << 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open audit log " + file + " for appending", e);
    }
  }

  @Override
  public synchronized void record(AuditRecord record) {
    if (error != null || closed) {
      return;
    }
    line.setLength(0);
    AuditLog.appendLine(record, line).append('\n');
    try {
      out.append(line);
      long now = System.nanoTime();
      if (now - lastFlush > 1_000_000_000L) {
        out.flush();
        lastFlush = now;
      }
    } catch (IOException e) {
      error = e;
    }
  }

  @Override
  public synchronized void flush() {
    if (error != null || closed) {
      return;
    }
    try {
      out.flush();
      lastFlush = System.nanoTime();
    } catch (IOException e) {
      error = e;
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    flush();
    closed = true;
    try {
      out.close();
    } catch (IOException e) {
      if (error == null) {
        error = e;
      }
    }
  }

  /** Returns the first write error, or null. */
  public synchronized IOException error() {
    return error;
  }

  /** Returns the file. */
  public Path file() {
    return file;
  }
}
