package io.github.routingkit.cli;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.router.ForwardingRouter;
import java.util.HexFormat;

/**
 * The one rule by which every command that reads a key file ({@code --keys}) routes its lines, as
 * a producer routes the record's key bytes: a {@code 0x<hex>} line ({@code 0x}, then an even
 * number of ASCII hex digits {@code 0-9 a-f A-F}, at least one byte) is a binary key and is routed
 * by the bytes it spells ({@link #bytesOf}), so a schema-registry key's header is where the
 * router's key format looks for it; every other line, a malformed one such as {@code 0x},
 * {@code 0xabc}, {@code 0xZZ} or {@code 0X12} included, is a text key, routed by its UTF-8 bytes.
 * The line itself stays the key's name in reports. Byte keys and keyless messages go to the
 * delegate unchanged. Thread-safety: as the delegate's.
 */
final class BinaryKeyLines extends ForwardingRouter {
  private static final long serialVersionUID = 1L;

  BinaryKeyLines(KeyRouter delegate) {
    super(delegate);
  }

  /**
   * The bytes a {@code 0x<hex>} line spells, or null if {@code line} is a text key (see the class
   * comment). The only parser of key lines: every command routes them through it.
   */
  static byte[] bytesOf(CharSequence line) {
    int n = line.length();
    if (n < 4 || n % 2 != 0 || line.charAt(0) != '0' || line.charAt(1) != 'x') {
      return null;
    }
    for (int i = 2; i < n; i++) {
      if (!HexFormat.isHexDigit(line.charAt(i))) { // ASCII 0-9 a-f A-F only
        return null;
      }
    }
    return HexFormat.of().parseHex(line, 2, n);
  }

  @Override
  protected int routeText(CharSequence key, int numPartitions) {
    byte[] bytes = bytesOf(key);
    return bytes != null ? delegate().partition(bytes, numPartitions)
        : delegate().partition(key, numPartitions);
  }

  @Override
  public int partition(CharSequence key, byte[] value, int numPartitions) {
    byte[] bytes = bytesOf(key);
    return bytes != null ? delegate().partition(bytes, value, numPartitions)
        : delegate().partition(key, value, numPartitions);
  }

  @Override
  public String toString() {
    return delegate().toString();
  }
}
