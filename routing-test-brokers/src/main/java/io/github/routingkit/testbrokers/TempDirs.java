package io.github.routingkit.testbrokers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Temporary directories and free loopback ports for the embedded brokers. */
final class TempDirs {
  /** Deletes a directory at JVM exit if the broker was never closed (killed test JVM, Ctrl-C). */
  private static final Map<Path, Thread> EXIT_HOOKS = new ConcurrentHashMap<>();

  private TempDirs() {}

  /**
   * The system property naming the directory the brokers' data directories are made in (default:
   * {@code java.io.tmpdir}), for example {@code target} to keep them inside a build's output.
   */
  static final String PARENT_PROPERTY = "routingkit.testbrokers.dir";

  /**
   * Creates a new temporary directory that is deleted by {@link #delete} or, failing that, at JVM
   * exit.
   *
   * @throws IOException if the directory cannot be created (the message names the parent)
   */
  static Path create(String prefix) throws IOException {
    String parent = System.getProperty(PARENT_PROPERTY);
    Path dir;
    try {
      dir = parent == null || parent.isBlank()
          ? Files.createTempDirectory(prefix)
          : Files.createTempDirectory(Path.of(parent), prefix);
    } catch (IOException e) {
      throw new IOException("cannot create a directory in "
          + (parent == null || parent.isBlank() ? System.getProperty("java.io.tmpdir")
              : parent + " (system property " + PARENT_PROPERTY + ")")
          + ": " + e, e);
    }
    Thread hook = new Thread(() -> deleteQuietly(dir), "delete-" + dir.getFileName());
    EXIT_HOOKS.put(dir, hook);
    Runtime.getRuntime().addShutdownHook(hook);
    return dir;
  }

  /** Deletes a directory made by {@link #create} and forgets its exit hook; failures swallowed. */
  static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    Thread hook = EXIT_HOOKS.remove(dir);
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException alreadyExiting) {
        // the hook runs anyway
      }
    }
    deleteQuietly(dir);
  }

  /**
   * Returns {@code count} distinct TCP ports on 127.0.0.1 that are free at the time of the call:
   * all sockets are held open together, so two of them cannot be the same port (which choosing
   * one port at a time can give).
   */
  static int[] freeLoopbackPorts(int count) {
    ServerSocket[] sockets = new ServerSocket[count];
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets[i].setReuseAddress(true);
        ports[i] = sockets[i].getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find free loopback ports", e);
    } finally {
      for (ServerSocket s : sockets) {
        if (s != null) {
          try {
            s.close();
          } catch (IOException e) {
            // the port is still ours to report; Kafka will bind it or fail clearly
          }
        }
      }
    }
  }

  /** Deletes {@code root} and everything under it; missing files are ignored, failures swallowed. */
  static void deleteQuietly(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          Files.deleteIfExists(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException | RuntimeException ignored) {
      // Best effort: a temp dir left behind is harmless and the OS cleans it eventually.
    }
  }
}
