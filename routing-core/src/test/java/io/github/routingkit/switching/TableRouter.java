package io.github.routingkit.switching;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeylessPolicy;
import java.nio.charset.StandardCharsets;

/** Routes key {@code "k<i>"} to {@code table[i]}: a router whose answers a test chooses. */
final class TableRouter extends AbstractKeyRouter {
  private static final long serialVersionUID = 1L;
  private final int[] table;

  TableRouter(int[] table) {
    this.table = table.clone();
  }

  static byte[] key(int index) {
    return ("k" + index).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
    int index = Integer.parseInt(new String(key, offset + 1, length - 1, StandardCharsets.UTF_8));
    return table[index];
  }

  @Override
  public int keylessPartition(int numPartitions) {
    return 0;
  }

  @Override
  public KeylessPolicy keylessPolicy() {
    return KeylessPolicy.ROUND_ROBIN;
  }
}
