package io.github.routingkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The real key samples of {@code shared/data} (see its README): npm package names (200,000) and
 * {@code country/admin1/name} of world cities (120,000, many non-ASCII). Found by walking up from
 * the module directory to the first ancestor holding {@code shared/data} (CI: {@code shared/} beside
 * the clone; here: {@code ../../shared/data} from a module), or at {@code -Droutingkit.shared.data}.
 * Absent data fails the test with a message saying where it looked, never skips it. Shared with
 * the adapters' tests through routing-core's test-jar.
 */
public final class SampleKeys {
  static final String NPM = "npm-package-names-200k.txt.gz";
  static final String CITIES = "geonames-cities-120k.tsv.gz";

  private static volatile List<String> all;

  private SampleKeys() {}

  /** Every npm name, then every city key; loaded once per JVM, unmodifiable. */
  public static List<String> all() {
    List<String> keys = all;
    if (keys == null) {
      synchronized (SampleKeys.class) {
        keys = all;
        if (keys == null) {
          Path dir = dataDir();
          List<String> loaded = new ArrayList<>(330_000);
          loaded.addAll(npmNames(dir));
          loaded.addAll(cityKeys(dir));
          all = keys = Collections.unmodifiableList(loaded);
        }
      }
    }
    return keys;
  }

  public static Path dataDir() {
    String override = System.getProperty("routingkit.shared.data");
    if (override != null) {
      return requireData(Paths.get(override));
    }
    Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
    for (Path p = start; p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared").resolve("data");
      if (Files.isRegularFile(candidate.resolve(NPM))) {
        return requireData(candidate);
      }
    }
    throw new IllegalStateException("real key samples not found: no shared/data/" + NPM
        + " in " + start + " or any parent (expected ../../shared/data from the module, i.e. shared/"
        + " beside the clone), set -Droutingkit.shared.data=<dir> to point at them");
  }

  private static Path requireData(Path dir) {
    for (String f : List.of(NPM, CITIES)) {
      if (!Files.isRegularFile(dir.resolve(f))) {
        throw new IllegalStateException("real key sample missing: " + dir.resolve(f));
      }
    }
    return dir;
  }

  /** The npm package names of the shared data set (fails, never skips, if it is missing). */
  public static List<String> npmNames() {
    return npmNames(dataDir());
  }

  private static List<String> npmNames(Path dir) {
    List<String> out = new ArrayList<>(200_000);
    for (String line : lines(dir.resolve(NPM))) {
      if (!line.isEmpty()) {
        out.add(line);
      }
    }
    return out;
  }

  /** {@code country/admin1/name} per city; the header line is skipped. */
  private static List<String> cityKeys(Path dir) {
    List<String> out = new ArrayList<>(120_000);
    List<String> lines = lines(dir.resolve(CITIES));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      if (f.length != 3) {
        throw new IllegalStateException("bad line in " + CITIES + ": " + line);
      }
      out.add(f[0] + '/' + f[1] + '/' + f[2]);
    }
    return out;
  }

  private static List<String> lines(Path gz) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(gz), 1 << 16), StandardCharsets.UTF_8))) {
      List<String> out = new ArrayList<>();
      for (String line; (line = r.readLine()) != null; ) {
        out.add(line);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + gz, e);
    }
  }
}
