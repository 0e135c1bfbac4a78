package io.github.routingkit.audit;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
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
 * <p>Lines end at {@code \n} (a {@code \r} before it is dropped); blank lines are ignored. A bad
 * line (not an audit line, longer than {@link #MAX_LINE_CHARS}, or not UTF-8) is an
 * {@link AuditLogException} naming the file and the line's number, or, when skipping, is counted
 * in {@link #skippedLines()} and passed over (bad UTF-8 is then read as U+FFFD, so the line may
 * still be a record). Lines are split on bytes and decoded one at a time, so the number is the
 * line's own. Text from the log in a message is made safe to print.
 *
 * <p>A read error (a truncated or corrupt {@code .gz}, an I/O error) ends the file: the records
 * before it have been returned; it is an {@link AuditLogException} saying how many lines were
 * read, or, when skipping, ends the file quietly and is kept in {@link #readError()}. Not
 * thread-safe.
 */
public final class AuditLogReader implements Closeable {
  /** The longest line read, in chars; longer lines are bad (never buffered in full). */
  public static final int MAX_LINE_CHARS = 65_536;
  /** UTF-8 needs at least one byte per char: a line of more bytes than this is too long. */
  private static final int MAX_LINE_BYTES = 3 * MAX_LINE_CHARS + 3;

  private final String name;
  private final InputStream in;
  private final boolean skipBadLines;
  private final CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
  /** Producers, topics, consumers...: a log names few, records kept in memory share them. */
  private final AuditLog.Interner interner = new AuditLog.Interner(4096);
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private byte[] line = new byte[256];
  private int lineLength;
  private boolean ended;
  private long lineNumber;
  private long skipped;
  private String firstSkipped;
  private String readError;

  private AuditLogReader(String name, InputStream in, boolean skipBadLines) {
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
      throw new AuditLogException(file + ": cannot read (" + SafeText.of(e.getMessage(), 200)
          + ")");
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
    return new AuditLogReader(name, data, skipBadLines);
  }

  /**
   * Returns the next record, or null at the end of the log (or, when skipping, at a read error).
   *
   * @throws AuditLogException for a bad line (unless skipping) or a read error (unless skipping)
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
      String text = decode();
      if (text == null) {
        continue;
      }
      if (text.length() > MAX_LINE_CHARS) {
        bad("line longer than " + MAX_LINE_CHARS + " characters");
        continue;
      }
      if (isBlank(text)) {
        continue;
      }
      try {
        return AuditLog.parse(text, interner);
      } catch (AuditLogException e) {
        bad(e.getMessage());
      }
    }
  }

  /** The current line as text, or null if it is not UTF-8 and not skipping (then reported). */
  private String decode() {
    int n = lineLength;
    if (n > 0 && line[n - 1] == '\r') {
      n--;
    }
    boolean ascii = true;
    for (int i = 0; i < n; i++) {
      if (line[i] < 0) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      return new String(line, 0, n, StandardCharsets.ISO_8859_1);
    }
    try {
      CharBuffer chars = strict.reset().decode(ByteBuffer.wrap(line, 0, n));
      return chars.toString();
    } catch (CharacterCodingException e) {
      if (!skipBadLines) {
        bad("not UTF-8 text");
        return null;
      }
      return new String(line, 0, n, StandardCharsets.UTF_8); // U+FFFD for the bad bytes
    }
  }

  private void bad(String why) {
    String where = name + ":" + lineNumber + ": " + SafeText.of(why, 300);
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

  /** Refills the buffer; returns false at the end of the input (or at a read error, skipping). */
  private boolean fill() {
    if (ended) {
      return false;
    }
    int n;
    try {
      do {
        n = in.read(buf, 0, buf.length);
      } while (n == 0);
    } catch (IOException e) {
      ended = true;
      String why = name + ": read error after line " + lineNumber + " ("
          + SafeText.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
          200) + ")";
      if (!skipBadLines) {
        throw new AuditLogException(why + "; --skip-bad-lines audits the " + lineNumber
            + " lines before it and reports the damage");
      }
      readError = why + ": the rest of the file is not read";
      lineLength = 0; // a line cut by the damage is not a line of the log
      return false;
    }
    if (n < 0) {
      ended = true;
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  /** Reads the next line's bytes into {@code line}; counts it. */
  private int readLine() {
    lineLength = 0;
    boolean tooLong = false;
    boolean any = false;
    while (true) {
      if (pos >= limit && !fill()) {
        if (!any || (readError != null && !tooLong && lineLength == 0)) {
          return EOF;
        }
        break;
      }
      any = true;
      int start = pos;
      int nl = -1;
      for (int i = pos; i < limit; i++) {
        if (buf[i] == '\n') {
          nl = i;
          break;
        }
      }
      int end = nl < 0 ? limit : nl;
      if (!tooLong) {
        if (lineLength + (end - start) > MAX_LINE_BYTES) {
          tooLong = true;
          lineLength = 0;
        } else {
          append(start, end);
        }
      }
      pos = nl < 0 ? limit : nl + 1;
      if (nl >= 0) {
        break;
      }
    }
    lineNumber++;
    return tooLong ? TOO_LONG : OK;
  }

  private void append(int from, int to) {
    int n = to - from;
    if (lineLength + n > line.length) {
      byte[] bigger = new byte[Math.min(MAX_LINE_BYTES, Math.max(line.length * 2, lineLength + n))];
      System.arraycopy(line, 0, bigger, 0, lineLength);
      line = bigger;
    }
    System.arraycopy(buf, from, line, lineLength, n);
    lineLength += n;
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

  /**
   * Returns the read error that ended the file when skipping (where, why, and that the rest was
   * not read), or null.
   */
  public String readError() {
    return readError;
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
