package io.github.routingkit.testbrokers;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The class loader the Pulsar standalone runs in: the JVM's class path without the shaded Pulsar
 * client jars, over the platform class loader.
 *
 * <p>Why: {@code org.apache.pulsar:pulsar-client} (and {@code pulsar-client-admin},
 * {@code pulsar-client-all}) bundle unrelocated copies of {@code org.apache.pulsar.common.*} and
 * {@code org.apache.pulsar.client.impl.*} compiled against their relocated Netty, Jackson, Caffeine
 * and Prometheus. When such a jar comes first on the class path (as it does for any project that
 * declares its pulsar-client before the test dependencies), the broker links against those copies
 * and fails, first with {@code NoSuchFieldError: CAFFEINE} in {@code AbstractMetadataStore}. Which
 * jar Maven puts first depends on the user's declaration order, so no POM ordering or exclusion in
 * this artifact can fix it; loading the broker from a class path without the shaded jars does.
 *
 * <p>One loader per JVM, created on first use and kept: RocksDB and Netty load native libraries,
 * which a JVM lets one class loader at a time hold.
 */
final class PulsarClassLoader {
  private static URLClassLoader loader;

  private PulsarClassLoader() {}

  /** Returns the shared loader, creating it on first call. */
  static synchronized ClassLoader get() {
    if (loader == null) {
      List<URL> urls = new ArrayList<>();
      for (Path entry : classPath()) {
        if (!isShadedPulsarClient(entry)) {
          try {
            urls.add(entry.toUri().toURL());
          } catch (MalformedURLException e) {
            throw new IllegalStateException("cannot use class path entry " + entry, e);
          }
        }
      }
      loader = new URLClassLoader("routingkit-pulsar-standalone", urls.toArray(new URL[0]),
          ClassLoader.getPlatformClassLoader());
    }
    return loader;
  }

  /**
   * Returns the entries of {@code java.class.path}, each jar's manifest {@code Class-Path} expanded
   * (Surefire and IDEs pass long class paths as one jar whose manifest lists them).
   */
  static List<Path> classPath() {
    Set<Path> out = new LinkedHashSet<>();
    for (String s : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!s.isEmpty()) {
        add(Path.of(s).toAbsolutePath().normalize(), out);
      }
    }
    return new ArrayList<>(out);
  }

  private static void add(Path entry, Set<Path> out) {
    if (!out.add(entry) || !Files.isRegularFile(entry)) {
      return;
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      Manifest m = jar.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      if (cp == null) {
        return;
      }
      URI base = entry.toUri();
      for (String ref : cp.trim().split("\\s+")) {
        if (ref.isEmpty()) {
          continue;
        }
        try {
          URI u = base.resolve(ref);
          if ("file".equals(u.getScheme())) {
            add(Path.of(u).toAbsolutePath().normalize(), out);
          }
        } catch (IllegalArgumentException e) {
          // not a file reference: ignore it, as the JVM's own loader would
        }
      }
    } catch (IOException e) {
      // not a jar: the JVM ignores it too
    }
  }

  /** True for a jar that holds Pulsar client classes next to relocated ({@code shade}) ones. */
  static boolean isShadedPulsarClient(Path entry) {
    if (!Files.isRegularFile(entry)) {
      return false;
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      if (jar.getEntry("org/apache/pulsar/client/impl/PulsarClientImpl.class") == null
          && jar.getEntry("org/apache/pulsar/client/admin/internal/PulsarAdminImpl.class") == null
          && jar.getEntry("org/apache/pulsar/common/api/proto/BaseCommand.class") == null) {
        return false;
      }
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        if (entries.nextElement().getName().startsWith("org/apache/pulsar/shade/")) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read class path entry " + entry, e);
    }
  }

}
