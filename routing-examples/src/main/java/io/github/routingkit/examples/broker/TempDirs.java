package io.github.routingkit.examples.broker;

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
   * Creates a new temporary directory that is deleted by {@link #delete} or, failing that, at JVM
   * exit.
   *
   * @throws IOException if the directory cannot be created
   */
  static Path create(String prefix) throws IOException {
    Path dir = Files.createTempDirectory(prefix);
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

  /** Returns a free TCP port on 127.0.0.1 at the time of the call (in [1024, 65535]). */
  static int freeLoopbackPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free loopback port", e);
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
