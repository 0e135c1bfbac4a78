package io.github.routingkit.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the class files a class was loaded from (a directory such as {@code target/classes} or a
 * jar), for the checks that main code runs on Java 11: the class-file major version of each class
 * (55 = Java 11, 61 = Java 17) and which classes name a given type.
 */
public final class ClassFiles {
  /** Class-file major version of Java 11. */
  public static final int JAVA_11 = 55;

  private ClassFiles() {}

  /** Returns every class file next to {@code anchor}'s, by binary name with '/', sorted. */
  public static Map<String, byte[]> besides(Class<?> anchor) {
    Path where;
    try {
      where = Paths.get(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    Map<String, byte[]> out = new TreeMap<>();
    try {
      if (Files.isDirectory(where)) {
        try (Stream<Path> files = Files.walk(where)) {
          for (Path p : (Iterable<Path>) files::iterator) {
            String name = where.relativize(p).toString().replace('\\', '/');
            if (name.endsWith(".class") && !name.endsWith("module-info.class")) {
              out.put(name.substring(0, name.length() - 6), Files.readAllBytes(p));
            }
          }
        }
      } else {
        try (ZipFile jar = new ZipFile(where.toFile())) {
          for (ZipEntry e : Collections.list(jar.entries())) {
            String name = e.getName();
            if (name.endsWith(".class") && !name.startsWith("META-INF/")
                && !name.endsWith("module-info.class")) {
              try (InputStream in = jar.getInputStream(e)) {
                out.put(name.substring(0, name.length() - 6), in.readAllBytes());
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Returns the class-file major version of {@code classFile} (JVMS 4.1, bytes 6 and 7). */
  public static int majorVersion(byte[] classFile) {
    return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
  }

  /** Returns the class-file major version of the class file {@code type} was loaded from. */
  public static int majorVersion(Class<?> type) {
    String resource = type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
      return majorVersion(in.readNBytes(8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Returns true if {@code classFile} names {@code internalName} (a binary name with '/', or a
   * package prefix of one) anywhere in its constant pool: class, field and method references and
   * descriptors all hold it as UTF-8 text.
   */
  public static boolean mentions(byte[] classFile, String internalName) {
    return new String(classFile, StandardCharsets.ISO_8859_1).contains(internalName);
  }
}
