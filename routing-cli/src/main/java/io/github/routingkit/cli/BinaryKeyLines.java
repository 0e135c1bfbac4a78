package io.github.routingkit.cli;

import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;

/**
 * Routes the keys of a key file as a producer routes the record's key bytes: a {@code 0x<hex>}
 * line (an even number of hex digits, at least one byte) is a binary key and is routed by the
 * bytes it spells ({@link SchemaIdScan#bytesOf}), so a schema-registry key's header is where the
 * router's key format looks for it; every other line is routed by its text (its UTF-8 bytes). The
 * line itself stays the key's name in the report. Byte keys and keyless messages go to
 * the delegate unchanged. Thread-safety: as the delegate's.
 */
final class BinaryKeyLines implements KeyRouter {
  private static final long serialVersionUID = 1L;
  private final KeyRouter delegate;

  BinaryKeyLines(KeyRouter delegate) {
    this.delegate = delegate;
  }

  /** Whether {@code key} is a {@code 0x<hex>} line, routed by the bytes it spells. */
  static boolean isBinary(CharSequence key) {
    int n = key.length();
    if (n < 4 || n % 2 != 0 || key.charAt(0) != '0' || key.charAt(1) != 'x') {
      return false;
    }
    for (int i = 2; i < n; i++) {
      if (Character.digit(key.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int partition(CharSequence key, int numPartitions) {
    return isBinary(key) ? delegate.partition(SchemaIdScan.bytesOf(key.toString()), numPartitions)
        : delegate.partition(key, numPartitions);
  }

  @Override
  public int partition(CharSequence key, byte[] value, int numPartitions) {
    return isBinary(key)
        ? delegate.partition(SchemaIdScan.bytesOf(key.toString()), value, numPartitions)
        : delegate.partition(key, value, numPartitions);
  }

  @Override
  public int partition(byte[] key, int numPartitions) {
    return delegate.partition(key, numPartitions);
  }

  @Override
  public int partition(byte[] key, int offset, int length, int numPartitions) {
    return delegate.partition(key, offset, length, numPartitions);
  }

  @Override
  public int partition(byte[] key, byte[] value, int numPartitions) {
    return delegate.partition(key, value, numPartitions);
  }

  @Override
  public int partition(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    return delegate.partition(key, offset, length, value, numPartitions);
  }

  @Override
  public boolean needsValue() {
    return delegate.needsValue();
  }

  @Override
  public int keylessPartition(int numPartitions) {
    return delegate.keylessPartition(numPartitions);
  }

  @Override
  public int keylessPartition(int numPartitions, AvailablePartitions available) {
    return delegate.keylessPartition(numPartitions, available);
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return delegate.keylessPolicy();
  }

  @Override
  public long claimedMemoryBytes() {
    return delegate.claimedMemoryBytes();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
