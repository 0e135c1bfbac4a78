package io.github.routingkit.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.AvailablePartitions;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.MessageView;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A {@link ForwardingRouter} that overrides nothing answers every call as its delegate does; the
 * delegate here answers each form differently from {@link AbstractKeyRouter}'s and
 * {@link KeyRouter}'s defaults, so a call that is not forwarded shows.
 */
class ForwardingRouterTest {

  /** Routes bytes by their sum and the value's length, text by its length, keyless to n - 1. */
  static final class Marked extends AbstractKeyRouter {
    private static final long serialVersionUID = 1L;

    @Override
    protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
      int sum = 0;
      for (int i = offset; i < offset + length; i++) {
        sum += key[i];
      }
      return Math.floorMod(sum * 31 + (value == null ? 7 : value.length), numPartitions);
    }

    @Override
    protected int routeText(CharSequence key, int numPartitions) {
      return Math.floorMod(key.length() * 17 + 3, numPartitions);
    }

    @Override
    public int keylessPartition(int numPartitions) {
      return numPartitions - 1;
    }

    @Override
    public int keylessPartition(int numPartitions, AvailablePartitions available) {
      return available.get(available.count() - 1);
    }

    @Override
    public KeylessPolicy keylessPolicy() {
      return KeylessPolicy.STICKY;
    }

    @Override
    public boolean needsValue() {
      return true;
    }

    @Override
    public long claimedMemoryBytes() {
      return 12_345;
    }
  }

  static final class Plain extends ForwardingRouter {
    private static final long serialVersionUID = 1L;

    Plain(KeyRouter delegate) {
      super(delegate);
    }
  }

  @Test
  void everyFormIsTheDelegates() {
    KeyRouter delegate = new Marked();
    ForwardingRouter router = new Plain(delegate);
    assertThat(router.delegate()).isSameAs(delegate);
    Random random = new Random(26);
    for (int c = 0; c < 500; c++) {
      int n = 1 + random.nextInt(64);
      byte[] key = new byte[random.nextInt(12)];
      random.nextBytes(key);
      byte[] value = new byte[random.nextInt(5)];
      int offset = key.length == 0 ? 0 : random.nextInt(key.length);
      int length = random.nextInt(key.length - offset + 1);
      String text = new String(key, StandardCharsets.ISO_8859_1) + "\u00e9";
      assertThat(router.partition(key, n)).isEqualTo(delegate.partition(key, n));
      assertThat(router.partition(key, value, n)).isEqualTo(delegate.partition(key, value, n));
      assertThat(router.partition(key, offset, length, n))
          .isEqualTo(delegate.partition(key, offset, length, n));
      assertThat(router.partition(key, offset, length, value, n))
          .isEqualTo(delegate.partition(key, offset, length, value, n));
      assertThat(router.partition(text, n)).isEqualTo(delegate.partition(text, n));
      assertThat(router.partition((byte[]) null, n)).isEqualTo(n - 1);
      assertThat(router.partition((CharSequence) null, n)).isEqualTo(n - 1);
      assertThat(router.keylessPartition(n)).isEqualTo(n - 1);
      int[] up = {0, n / 2};
      AvailablePartitions available = new AvailablePartitions() {
        @Override
        public int count() {
          return up.length;
        }

        @Override
        public int get(int index) {
          return up[index];
        }
      };
      assertThat(router.keylessPartition(n, available)).isEqualTo(n / 2);
      MessageView<byte[]> view = new MessageView<>() {
        @Override
        public CharSequence keyText(byte[] message) {
          return null;
        }

        @Override
        public byte[] keyBytes(byte[] message) {
          return message;
        }

        @Override
        public byte[] value(byte[] message) {
          return value;
        }
      };
      assertThat(router.partitionOf(key, view, n)).isEqualTo(delegate.partitionOf(key, view, n));
    }
    assertThat(router.keylessPolicy()).isEqualTo(KeylessPolicy.STICKY);
    assertThat(router.needsValue()).isTrue();
    assertThat(router.claimedMemoryBytes()).isEqualTo(12_345);
  }

  @Test
  void aRangeIsCheckedOnce() {
    ForwardingRouter router = new Plain(new Marked());
    byte[] key = new byte[4];
    assertThatThrownBy(() -> router.partition(key, 3, 2, 8))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> router.partition(key, -1, 1, new byte[0], 8))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(router.partition(Arrays.copyOf(key, 4), 1, 2, 8))
        .isEqualTo(new Marked().partition(key, 1, 2, 8));
  }

  @Test
  void aNullDelegateIsRefused() {
    assertThatThrownBy(() -> new Plain(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("delegate");
  }
}
