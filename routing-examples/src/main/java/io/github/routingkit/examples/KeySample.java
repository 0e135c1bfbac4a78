package io.github.routingkit.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** Reads a key sample: UTF-8 text, one key per line, optionally gzip-compressed. */
public final class KeySample {
  /** The sample shipped with the project, relative to the project root. */
  public static final Path DEFAULT = Path.of("docs", "samples", "routing-keys.txt.gz");

  private KeySample() {}

  /**
   * Returns the shipped sample {@link #DEFAULT}, looked up in the working directory and its
   * parents (so it is found from the project root and from a module directory).
   *
   * @throws IOException if no such file exists above the working directory
   */
  public static Path locateDefault() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(DEFAULT);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IOException("cannot find " + DEFAULT + " in " + Path.of("").toAbsolutePath()
        + " or its parents");
  }

  /**
   * Reads at most {@code limit} non-empty lines of {@code file}, in file order; a name ending in
   * {@code .gz} is decompressed. Lines are kept as they are (no trimming) except for the line break.
   *
   * @param file the sample file
   * @param limit the maximum number of keys to read, at least 0
   * @return the keys, a new mutable list of at most {@code limit} elements
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if {@code limit < 0}
   */
  public static List<String> read(Path file, int limit) throws IOException {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be at least 0, was " + limit);
    }
    List<String> keys = new ArrayList<>();
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while (keys.size() < limit && (line = reader.readLine()) != null) {
        if (!line.isEmpty()) {
          keys.add(line);
        }
      }
    }
    return keys;
  }
}
