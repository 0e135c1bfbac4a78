package io.github.routingkit.compat;

import io.github.routingkit.compat.CrossClientVectors.Kind;
import io.github.routingkit.compat.CrossClientVectors.Row;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * routing-core's cross-client vectors ({@code src/test/resources/compat/}, from its test-jar) for
 * the lint tests of routing-cli: what each real client chose per key and partition count. The
 * reader ({@link CrossClientVectors}) is package-private in routing-core's tests; this bridge
 * shares its package.
 */
public final class LintVectors {
  private LintVectors() {}

  /** The partition counts of a vector file, in column order. */
  public static int[] counts(String file) {
    return CrossClientVectors.load(file).counts.clone();
  }

  /** The client and version the file was generated from. */
  public static String client(String file) {
    return CrossClientVectors.load(file).client;
  }

  /** The partitioners (columns) of a vector file. */
  public static List<String> partitioners(String file) {
    return CrossClientVectors.load(file).partitioners;
  }

  /**
   * The byte keys of a file (hex) to the partitioner's choice at each count, in file order; keys
   * the client places at random ({@code *}) map to null. Keyless rows and JavaScript strings are
   * left out: they have no byte key every client shares.
   */
  public static Map<String, int[]> column(String file, String partitioner) {
    CrossClientVectors v = CrossClientVectors.load(file);
    int col = v.column(partitioner);
    Map<String, int[]> out = new LinkedHashMap<>();
    for (Row r : v.rows) {
      if (r.kind() == Kind.BYTES) {
        out.put(HexFormat.of().formatHex(r.bytes()), r.partitions()[col]);
      }
    }
    return out;
  }
}
