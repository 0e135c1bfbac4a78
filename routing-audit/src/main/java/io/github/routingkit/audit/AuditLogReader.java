package io.github.routingkit.audit;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Streams the records of one audit log ({@link AuditLog} format; gzip when the name ends in
 * {@code .gz}) with memory bounded by {@link #MAX_LINE_CHARS}, whatever the file holds.
 *
 * <p>Blank lines are ignored. A bad line (not an audit line, longer than {@link #MAX_LINE_CHARS},
 * or not UTF-8) is an {@link AuditLogException} naming the file and line, or, when skipping, is
 * counted in {@link #skippedLines()} and passed over (bad UTF-8 is then read as U+FFFD). Not
 * thread-safe.
 */
public final class AuditLogReader implements Closeable {
  /** The longest line read, in chars; longer lines are bad (never buffered in full). */
  public static final int MAX_LINE_CHARS = 65_536;

  private final String name;
  private final Reader in;
  private final boolean skipBadLines;
  private final StringBuilder line = new StringBuilder(256);
  private long lineNumber;
  private long skipped;
  private String firstSkipped;

  private AuditLogReader(String name, Reader in, boolean skipBadLines) {
    this.name = name;
    this.in = in;
    this.skipBadLines = skipBadLines;
  }

  /**
   * Opens a log file.
   *
   * @param file the file; gzip-compressed when its name ends in {@code .gz}
   * @param skipBadLines true to count and skip bad lines instead of failing on the first one
   * @return the reader; close it
   * @throws AuditLogException if the file cannot be opened or is not gzip though named so
   */
  public static AuditLogReader open(Path file, boolean skipBadLines) {
    InputStream raw = null;
    try {
      raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
      InputStream data = file.getFileName().toString().endsWith(".gz")
          ? new GZIPInputStream(raw, 1 << 16) : raw;
      return of(file.toString(), data, skipBadLines);
    } catch (IOException e) {
      closeQuietly(raw);
      throw new AuditLogException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  /**
   * Reads a log from a stream (UTF-8).
   *
   * @param name the name used in error messages
   * @param data the log's bytes; closed by {@link #close()}
   * @param skipBadLines true to count and skip bad lines
   * @return the reader
   */
  public static AuditLogReader of(String name, InputStream data, boolean skipBadLines) {
    CodingErrorAction action = skipBadLines ? CodingErrorAction.REPLACE : CodingErrorAction.REPORT;
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(action).onUnmappableCharacter(action);
    return new AuditLogReader(name, new InputStreamReader(data, decoder), skipBadLines);
  }

  /**
   * Returns the next record, or null at the end of the log.
   *
   * @throws AuditLogException for a bad line (unless skipping) or a read error
   */
  public AuditRecord next() {
    while (true) {
      int state = readLine();
      if (state == EOF) {
        return null;
      }
      if (state == TOO_LONG) {
        bad("line longer than " + MAX_LINE_CHARS + " characters");
        continue;
      }
      if (isBlank(line)) {
        continue;
      }
      try {
        return AuditLog.parse(line.toString());
      } catch (AuditLogException e) {
        bad(e.getMessage());
      }
    }
  }

  private void bad(String why) {
    String where = name + ":" + lineNumber + ": " + why;
    if (!skipBadLines) {
      throw new AuditLogException(where
          + " (every line must be one audit record; --skip-bad-lines counts and skips such lines)");
    }
    if (firstSkipped == null) {
      firstSkipped = where;
    }
    skipped++;
  }

  private static final int OK = 0;
  private static final int EOF = 1;
  private static final int TOO_LONG = 2;

  private final char[] buf = new char[1 << 16];
  private int pos;
  private int limit;

  /** Refills the buffer; returns false at the end of the input. */
  private boolean fill() throws IOException {
    int n;
    do {
      n = in.read(buf, 0, buf.length);
    } while (n == 0);
    if (n < 0) {
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  private int readLine() {
    line.setLength(0);
    boolean tooLong = false;
    boolean any = false;
    try {
      outer:
      while (true) {
        if (pos >= limit && !fill()) {
          if (!any) {
            return EOF;
          }
          break;
        }
        any = true;
        int start = pos;
        while (pos < limit) {
          if (buf[pos] == '\n') {
            append(start, pos, tooLong);
            tooLong |= line.length() > MAX_LINE_CHARS;
            pos++;
            break outer;
          }
          pos++;
        }
        append(start, pos, tooLong);
        if (line.length() > MAX_LINE_CHARS) {
          tooLong = true;
          line.setLength(0);
        }
      }
    } catch (CharacterCodingException e) {
      lineNumber++;
      throw new AuditLogException(name + ":" + lineNumber + ": not UTF-8 text");
    } catch (IOException e) {
      throw new AuditLogException(name + ": read error near line " + (lineNumber + 1) + " ("
          + e.getMessage() + ")");
    }
    lineNumber++;
    if (tooLong) {
      line.setLength(0);
      return TOO_LONG;
    }
    if (line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
      line.setLength(line.length() - 1);
    }
    return OK;
  }

  /** Appends buf[from, to) unless the line is already too long (then it is discarded). */
  private void append(int from, int to, boolean tooLong) {
    if (!tooLong) {
      line.append(buf, from, to - from);
    }
  }

  private static boolean isBlank(CharSequence s) {
    for (int i = 0; i < s.length(); i++) {
      if (!Character.isWhitespace(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Returns the number of lines read so far (including blank and skipped ones). */
  public long lineNumber() {
    return lineNumber;
  }

  /** Returns the number of bad lines skipped so far. */
  public long skippedLines() {
    return skipped;
  }

  /** Returns where the first skipped line was and why, or null. */
  public String firstSkipped() {
    return firstSkipped;
  }

  /** Returns the name used in messages. */
  public String name() {
    return name;
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void closeQuietly(Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException ignored) {
        // already failing
      }
    }
  }
}
