package io.github.routingkit.cli;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The key file options shared by the subcommands, and a streaming reader: one line at a time, so
 * memory does not grow with the file. Plain text (one key per line, blank lines skipped), TSV or
 * CSV with a header line, each optionally gzip-compressed (recognized by its magic bytes). The keys
 * are handed on as read; every command routes them through {@link BinaryKeyLines}, so a
 * {@code 0x<hex>} key is routed by its bytes alike in all of them.
 */
final class KeyInput {
  static final long PROGRESS_EVERY = 1_000_000;
  /** Lines checked for NUL bytes, the sign of a binary file. */
  static final long BINARY_CHECK_LINES = 1_000;

  // required, checked in validate: analyze reads a live topic instead when given one
  @Option(names = "--keys", paramLabel = "FILE",
      description = "Key sample: one key per line, or TSV/CSV with a header; .gz is read"
          + " directly; - reads standard input. A 0x<hex> key (even number of hex digits) is a"
          + " binary key, routed by its bytes; any other key by its UTF-8 text.")
  Path file;

  @Option(names = "--column", paramLabel = "N", split = ",",
      description = "TSV/CSV column(s) holding the key, 1-based; several are joined with --join.")
  List<Integer> columns;

  @Option(names = "--tsv-field", paramLabel = "NAME", split = ",",
      description = "TSV/CSV column(s) holding the key, by header name; several are joined with --join.")
  List<String> fields;

  @Option(names = "--join", paramLabel = "SEP", defaultValue = "/",
      description = "Separator between several key columns (default: ${DEFAULT-VALUE}).")
  String join;

  @Option(names = "--input-format", paramLabel = "FORMAT",
      description = "text, tsv or csv (default: from the file name: .tsv or .csv, optionally"
          + " followed by .gz; else tsv if a column is named, else text).")
  String inputFormat;

  @Option(names = "--no-header", description = "TSV/CSV input has no header line.")
  boolean noHeader;

  @Option(names = "--quiet", description = "No progress lines on stderr.")
  boolean quiet;

  /** What a pass over the file saw. */
  record Stats(long lines, long keys, long skipped) {}

  /** Checks the options that picocli cannot check alone; a ParameterException means exit 2. */
  void validate(picocli.CommandLine cmd) {
    if (file == null) {
      throw new ParameterException(cmd, "Missing required option: '--keys=FILE'");
    }
    if (columns != null && fields != null) {
      throw new ParameterException(cmd, "give either --column or --tsv-field, not both");
    }
    if (columns != null) {
      for (int c : columns) {
        if (c < 1) {
          throw new ParameterException(cmd, "--column was " + c + ", must be at least 1 (1-based)");
        }
      }
    }
    String f = format();
    if (!f.equals("text") && !f.equals("tsv") && !f.equals("csv")) {
      throw new ParameterException(cmd, "--input-format was '" + inputFormat
          + "', must be text, tsv or csv");
    }
    if (f.equals("text") && (columns != null || fields != null)) {
      throw new ParameterException(cmd, "--column/--tsv-field need tsv or csv input, the input"
          + " format is text");
    }
    if (fields != null && noHeader) {
      throw new ParameterException(cmd, "--tsv-field needs a header line, but --no-header is set");
    }
  }

  String format() {
    if (inputFormat != null) {
      return inputFormat.toLowerCase(Locale.ROOT);
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    if (name.endsWith(".tsv") || name.endsWith(".tab")) {
      return "tsv";
    }
    if (name.endsWith(".csv")) {
      return "csv";
    }
    return columns != null || fields != null ? "tsv" : "text";
  }

  /**
   * Streams every key of the file to {@code sink}; progress every million lines on {@code err}.
   *
   * @throws InputException (exit 2) if the file cannot be read or a named field is missing
   */
  Stats forEachKey(Consumer<String> sink, PrintWriter err) {
    String f = format();
    long lines = 0;
    long keys = 0;
    long skipped = 0;
    try (BufferedReader reader = open(file)) {
      int[] idx = null;
      if (!f.equals("text")) {
        if (!noHeader) {
          String header = reader.readLine();
          lines++;
          if (header == null) {
            throw new InputException(displayName() + " holds no keys (it is empty)");
          }
          List<String> names = split(stripBom(header), f);
          idx = indexes(names);
          for (int i : idx) {
            if (i >= names.size()) {
              throw new InputException("--column " + (i + 1) + " is beyond the " + names.size()
                  + " column(s) of the header of " + displayName() + " " + names);
            }
          }
        } else {
          idx = indexes(null);
        }
      }
      String line;
      boolean first = noHeader || f.equals("text");
      while ((line = reader.readLine()) != null) {
        lines++;
        if (first) {
          line = stripBom(line);
          first = false;
        }
        if (lines <= BINARY_CHECK_LINES && line.indexOf('\u0000') >= 0) {
          // a zip, parquet or other binary file read as text would "analyze" fine, exit 0
          throw new InputException(displayName() + " looks binary (a NUL byte on line " + lines
              + "); give a text, TSV or CSV key sample (gzip is read directly)");
        }
        if (!quiet && lines % PROGRESS_EVERY == 0) {
          err.printf(Locale.ROOT, "routing: %,d lines read from %s%n", lines, displayName());
          err.flush();
        }
        if (idx == null) {
          if (line.isEmpty()) {
            skipped++;
            continue;
          }
          sink.accept(line);
          keys++;
          continue;
        }
        List<String> cells = split(line, f);
        String key = select(cells, idx);
        if (key == null) {
          skipped++;
          continue;
        }
        sink.accept(key);
        keys++;
      }
    } catch (NoSuchFileException e) {
      throw new InputException("cannot read " + displayName() + ": no such file");
    } catch (java.nio.file.AccessDeniedException e) {
      throw new InputException("cannot read " + displayName() + ": permission denied");
    } catch (IOException | UncheckedIOException e) {
      throw new InputException("cannot read " + displayName() + ": " + e.getMessage());
    }
    if (keys == 0) {
      // an empty sample would "pass" any --fail-above check: refuse it
      throw new InputException(displayName() + " holds no keys" + (skipped > 0 ? " (all " + skipped
          + " line(s) were blank or had too few columns" + (columns != null ? " for --column "
          + columns.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))
          : "") + ")" : ""));
    }
    return new Stats(lines, keys, skipped);
  }

  private int[] indexes(List<String> header) {
    if (fields != null) {
      int[] idx = new int[fields.size()];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = header.indexOf(fields.get(i));
        if (idx[i] < 0) {
          throw new InputException("--tsv-field " + fields.get(i) + " is not a column of " + displayName()
              + ", the header has " + header);
        }
      }
      return idx;
    }
    if (columns == null) {
      return new int[] {0};
    }
    int[] idx = new int[columns.size()];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = columns.get(i) - 1;
    }
    return idx;
  }

  private String select(List<String> cells, int[] idx) {
    if (idx.length == 1) {
      return idx[0] < cells.size() ? cells.get(idx[0]) : null;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < idx.length; i++) {
      if (idx[i] >= cells.size()) {
        return null;
      }
      sb.append(i == 0 ? "" : join).append(cells.get(idx[i]));
    }
    return sb.toString();
  }

  /** Splits a TSV line on tabs, or a CSV line by RFC 4180 (quoted fields on one line). */
  static List<String> split(String line, String format) {
    List<String> out = new ArrayList<>();
    if (format.equals("tsv")) {
      int start = 0;
      for (int i = 0; i <= line.length(); i++) {
        if (i == line.length() || line.charAt(i) == '\t') {
          out.add(line.substring(start, i));
          start = i + 1;
        }
      }
      return out;
    }
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          cell.append(c);
        }
      } else if (c == '"' && cell.length() == 0) {
        quoted = true;
      } else if (c == ',') {
        out.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    out.add(cell.toString());
    return out;
  }

  private static String stripBom(String s) {
    return !s.isEmpty() && s.charAt(0) == '\uFEFF' ? s.substring(1) : s;
  }

  /** How the input is named in output and errors: the path, or "standard input" for {@code -}. */
  String displayName() {
    return isStdin() ? "standard input" : file.toString();
  }

  /** Whether the input is standard input ({@code --keys -}), which can be read only once. */
  boolean isStdin() {
    return file.toString().equals("-");
  }

  static BufferedReader open(Path file) throws IOException {
    InputStream raw;
    if (file.toString().equals("-")) {
      raw = new java.io.FilterInputStream(System.in) {
        @Override
        public void close() {
          // standard input stays open for the rest of the process
        }
      };
    } else if (Files.isDirectory(file)) {
      throw new IOException("is a directory");
    } else {
      raw = Files.newInputStream(file);
    }
    InputStream in = new BufferedInputStream(raw, 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    if (b1 == 0x1f && b2 == 0x8b) {
      in = new GZIPInputStream(in, 1 << 16);
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)), 1 << 16);
  }

  /** A problem with the user's input: reported in one line, exit code 2. */
  static final class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InputException(String message) {
      super(message);
    }
  }
}
