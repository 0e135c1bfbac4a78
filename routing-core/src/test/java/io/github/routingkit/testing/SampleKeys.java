package io.github.routingkit.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The real key samples shipped with the tests under {@code routing-core/src/test/resources/samples}
 * (see the README there for sources and licenses): npm package names (200,000) and
 * {@code country/admin1/name} of world cities (120,000, many non-ASCII). Read from the test
 * classpath, so they come with the clone and reach the adapters' tests through routing-core's
 * test-jar; nothing outside the repository is read. A missing resource fails the test, never skips it.
 */
public final class SampleKeys {
  static final String NPM = "samples/npm-package-names-200k.txt.gz";
  static final String CITIES = "samples/geonames-cities-120k.tsv.gz";

  private static volatile List<String> all;

  private SampleKeys() {}

  /** Every npm name, then every city key; loaded once per JVM, unmodifiable. */
  public static List<String> all() {
    List<String> keys = all;
    if (keys == null) {
      synchronized (SampleKeys.class) {
        keys = all;
        if (keys == null) {
          List<String> loaded = new ArrayList<>(330_000);
          loaded.addAll(npmNames());
          loaded.addAll(cityKeys());
          all = keys = Collections.unmodifiableList(loaded);
        }
      }
    }
    return keys;
  }

  /** The 200,000 npm package names (fails, never skips, if the resource is missing). */
  public static List<String> npmNames() {
    List<String> out = new ArrayList<>(200_000);
    for (String line : lines(NPM)) {
      if (!line.isEmpty()) {
        out.add(line);
      }
    }
    return out;
  }

  /** {@code country/admin1/name} per city; the header line is skipped. */
  private static List<String> cityKeys() {
    List<String> out = new ArrayList<>(120_000);
    List<String> lines = lines(CITIES);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      if (f.length != 3) {
        throw new IllegalStateException("bad line in " + CITIES + ": " + line);
      }
      out.add(f[0] + '/' + f[1] + '/' + f[2]);
    }
    return out;
  }

  private static List<String> lines(String resource) {
    InputStream in = SampleKeys.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("real key samples not found: no " + resource
          + " on the test classpath (it lives in routing-core/src/test/resources and reaches other"
          + " modules through routing-core's test-jar)");
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(in, 1 << 16), StandardCharsets.UTF_8))) {
      List<String> out = new ArrayList<>();
      for (String line; (line = r.readLine()) != null; ) {
        out.add(line);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
