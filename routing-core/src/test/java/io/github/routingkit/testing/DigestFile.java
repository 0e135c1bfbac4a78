package io.github.routingkit.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A committed file of named assignment digests that a test compares its results to, one line per
 * name ({@code name digest}), so a change of any assignment fails the test and names what moved.
 * With {@code -Dassignment.digests.update=true} the test rewrites the file instead, for a change
 * meant to move assignments (say why in the commit). A test runs in its module's directory, so the
 * file is given as a path under {@code src/test/resources}.
 */
public final class DigestFile {
  /** The system property that rewrites the committed file instead of comparing to it. */
  public static final String UPDATE_PROPERTY = "assignment.digests.update";

  private DigestFile() {}

  /** One named digest: a line {@code name digest} of the file. */
  public record Entry(String name, String digest) {
    String line() {
      return name + " " + digest;
    }
  }

  /**
   * Compares {@code entries} to the committed file {@code stored}, or writes them there when
   * {@link #UPDATE_PROPERTY} is {@code true}.
   *
   * @param stored the committed file, relative to the module's directory
   * @param entries the digests just computed, in file order
   * @param regenerate the command that rewrites the file, quoted in the failure message
   * @throws AssertionError naming every entry whose digest differs, or that is new or gone
   * @throws IOException if the file cannot be read or written
   */
  public static void assertMatches(Path stored, List<Entry> entries, String regenerate)
      throws IOException {
    List<String> now = new ArrayList<>();
    entries.forEach(e -> now.add(e.line()));
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      Files.createDirectories(stored.toAbsolutePath().getParent());
      Files.write(stored, now);
    }
    if (!Files.exists(stored)) {
      throw new AssertionError("no committed assignment digests at " + stored
          + "; write them with: " + regenerate);
    }
    List<String> committed = Files.readAllLines(stored);
    Map<String, String> was = new HashMap<>();
    List<String> changed = new ArrayList<>();
    for (String l : committed) {
      String name = null;
      for (Entry e : entries) {
        if (l.startsWith(e.name() + " ") && (name == null || e.name().length() > name.length())) {
          name = e.name();
        }
      }
      if (name == null) {
        changed.add("  gone: " + l);
      } else {
        was.putIfAbsent(name, l.substring(name.length() + 1));
      }
    }
    for (Entry e : entries) {
      String before = was.get(e.name());
      if (before == null) {
        changed.add("  new: " + e.line());
      } else if (!before.equals(e.digest())) {
        changed.add("  " + e.name() + ": now " + e.digest() + ", committed " + before);
      }
    }
    if (!changed.isEmpty() || !committed.equals(now)) {
      throw new AssertionError("assignments differ from the committed digests in " + stored
          + (changed.isEmpty() ? " (order of lines)" : ":\n" + String.join("\n", changed))
          + "\nIf the change is meant to move these assignments, rewrite the file with\n  "
          + regenerate + "\nand say why in the commit.");
    }
  }
}
