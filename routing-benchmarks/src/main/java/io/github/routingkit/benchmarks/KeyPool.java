package io.github.routingkit.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A fixed pool of distinct keys of one length, so a benchmark cycles through many keys (realistic
 * branch and cache behaviour) instead of hashing one key over and over. Seeded: every run sees the
 * same keys. Public for the benchmarks in {@code io.github.routingkit} that reach package-private
 * code.
 */
public final class KeyPool {
  public static final int SIZE = 1024; // power of two: index with & MASK
  public static final int MASK = SIZE - 1;
  private static final char[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./".toCharArray();

  public final String[] strings = new String[SIZE];
  final char[][] chars = new char[SIZE][];
  final byte[][] bytes = new byte[SIZE][];

  public KeyPool(int length) {
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < SIZE; i++) {
      char[] c = new char[length];
      for (int j = 0; j < length; j++) {
        c[j] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      chars[i] = c;
      strings[i] = new String(c);
      bytes[i] = strings[i].getBytes(StandardCharsets.UTF_8);
    }
  }
}
