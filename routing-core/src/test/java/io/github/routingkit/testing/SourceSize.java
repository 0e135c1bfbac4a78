package io.github.routingkit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The size rule every RoutingKit module is held to: no main source file over 500 lines. */
public final class SourceSize {
  private SourceSize() {}

  /** The most lines a main source file may have (CONTRIBUTING.md). */
  public static final int MAX_MAIN_LINES = 500;

  /**
   * The {@code .java} files under {@code sourceRoot} with more than {@code maxLines} lines, each as
   * {@code path: lines}, sorted; empty if none (or if {@code sourceRoot} does not exist). A test
   * runs in its module's directory, so {@code Path.of("src/main/java")} is the module's main code.
   *
   * @throws UncheckedIOException if a file cannot be read
   */
  public static List<String> sourcesLongerThan(Path sourceRoot, int maxLines) {
    if (!Files.isDirectory(sourceRoot)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().map(p -> {
        try (Stream<String> lines = Files.lines(p)) {
          long n = lines.count();
          return n > maxLines ? p + ": " + n : null;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).filter(Objects::nonNull).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
