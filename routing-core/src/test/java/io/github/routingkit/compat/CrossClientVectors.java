package io.github.routingkit.compat;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * One vector file of {@code src/test/resources/compat/}, written by a generator of {@code compat/}
 * from a real client (see {@code compat/regenerate.sh}): a header naming the client and version,
 * the partition counts and the partitioners, then one row per key with each partitioner's choice
 * for every count. Self-contained: the keys are in the rows. Public (in routing-core's test-jar) so
 * that the adapters' tests can route the same keys through their clients' APIs.
 */
public final class CrossClientVectors {

  /** What a row's key is. */
  public enum Kind {
    /** A key of the given bytes ({@code b:<hex>}). */
    BYTES,
    /** No key ({@code null}). */
    NULL,
    /** A JavaScript string of the given UTF-16 code units ({@code s:<hex>}, KafkaJS only). */
    JS_STRING
  }

  /** One key and, per partitioner, its partition per count ({@code null}: random / round-robin). */
  public record Row(Kind kind, byte[] bytes, String text, int[][] partitions) {
    /** The key as the vector file writes it, shortened. */
    public String label() {
      String s = kind == Kind.BYTES ? "b:" + HexFormat.of().formatHex(bytes)
          : kind == Kind.NULL ? "null" : "s:" + text.chars()
              .mapToObj(c -> String.format("%04x", c)).reduce("", String::concat);
      return s.length() > 60 ? s.substring(0, 60) + "... (" + bytes.length + " bytes)" : s;
    }
  }

  public final String file;
  public final String client;
  public final int[] counts;
  public final List<String> partitioners;
  public final List<Row> rows;

  private CrossClientVectors(String file, String client, int[] counts, List<String> partitioners,
      List<Row> rows) {
    this.file = file;
    this.client = client;
    this.counts = counts;
    this.partitioners = partitioners;
    this.rows = rows;
  }

  private static final java.util.concurrent.ConcurrentHashMap<String, CrossClientVectors> LOADED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Loads {@code /compat/<name>} once per JVM; fails (never skips) if it is missing or malformed. */
  public static CrossClientVectors load(String name) {
    return LOADED.computeIfAbsent(name, CrossClientVectors::read);
  }

  private static CrossClientVectors read(String name) {
    String resource = "/compat/" + name;
    InputStream in = CrossClientVectors.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("missing test resource " + resource
          + " (regenerate with compat/regenerate.sh --install)");
    }
    String client = null;
    int[] counts = null;
    List<String> partitioners = null;
    List<Row> rows = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(in, 1 << 16), UTF_8), 1 << 16)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("# client: ")) {
          client = line.substring("# client: ".length());
        } else if (line.startsWith("# counts: ")) {
          counts = Arrays.stream(line.substring("# counts: ".length()).split(" "))
              .mapToInt(Integer::parseInt).toArray();
        } else if (line.startsWith("# partitioners: ")) {
          partitioners = List.of(line.substring("# partitioners: ".length()).split(" "));
        } else if (!line.startsWith("#")) {
          if (counts == null || partitioners == null) {
            throw new IllegalStateException(resource + ": rows before the counts/partitioners header");
          }
          rows.add(parseRow(resource, line, counts.length, partitioners.size()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    if (client == null || rows.isEmpty()) {
      throw new IllegalStateException(resource + ": no '# client:' header or no rows");
    }
    return new CrossClientVectors(name, client, counts, partitioners, List.copyOf(rows));
  }

  private static Row parseRow(String resource, String line, int nCounts, int nPartitioners) {
    String[] f = line.split("\t", -1);
    if (f.length != 1 + nPartitioners) {
      throw new IllegalStateException(resource + ": expected " + (1 + nPartitioners)
          + " columns: " + line.substring(0, Math.min(80, line.length())));
    }
    Kind kind;
    byte[] bytes = null;
    String text = null;
    if (f[0].equals("null")) {
      kind = Kind.NULL;
    } else if (f[0].startsWith("b:")) {
      kind = Kind.BYTES;
      bytes = HexFormat.of().parseHex(f[0], 2, f[0].length());
    } else if (f[0].startsWith("s:")) {
      kind = Kind.JS_STRING;
      StringBuilder sb = new StringBuilder();
      for (int i = 2; i < f[0].length(); i += 4) {
        sb.append((char) Integer.parseInt(f[0].substring(i, i + 4), 16));
      }
      text = sb.toString();
    } else {
      throw new IllegalStateException(resource + ": bad key " + f[0]);
    }
    int[][] partitions = new int[nPartitioners][];
    for (int p = 0; p < nPartitioners; p++) {
      String cell = f[1 + p];
      if (cell.startsWith("=")) {
        int same = Integer.parseInt(cell.substring(1)) - 1;
        if (same < 0 || same >= p) {
          throw new IllegalStateException(resource + ": bad reference " + cell);
        }
        partitions[p] = partitions[same];
      } else if (cell.equals("*")) {
        partitions[p] = null;
      } else {
        partitions[p] = Arrays.stream(cell.split(",")).mapToInt(Integer::parseInt).toArray();
        if (partitions[p].length != nCounts) {
          throw new IllegalStateException(resource + ": expected " + nCounts + " partitions: " + cell);
        }
      }
    }
    return new Row(kind, bytes, text, partitions);
  }

  /** Returns the column of the named partitioner; fails if the file has none. */
  public int column(String partitioner) {
    int i = partitioners.indexOf(partitioner);
    if (i < 0) {
      throw new IllegalStateException(file + " has no partitioner " + partitioner + ": " + partitioners);
    }
    return i;
  }
}
