package io.github.routingkit.hash;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.router.HashRouter;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Keyed routing of String keys allocates nothing under the schemes that hash the UTF-8 encoding on
 * the fly (all but CRC-32, XXH3 and the Pulsar C++ BoostHash schemes, which hash a byte array and
 * document that text allocates its encoding): measured with the JVM's per-thread allocation counter after a warm-up (a check, not a
 * benchmark).
 */
class TextKeyAllocationTest {

  /** The schemes that encode a text key to UTF-8 before hashing it, as their Javadoc says. */
  static final java.util.Set<HashScheme> ENCODE_TEXT_FIRST = java.util.EnumSet.of(
      HashScheme.LIBRDKAFKA_CRC32, HashScheme.XXH3_64, HashScheme.PULSAR_CPP_BOOST_PRE_1_81,
      HashScheme.PULSAR_CPP_BOOST_PRE_1_81_UNSIGNED_CHAR, HashScheme.PULSAR_CPP_BOOST_1_81,
      HashScheme.PULSAR_CPP_BOOST_FROM_1_82);

  @Test
  void keyedTextRoutingDoesNotAllocate() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
    String[] keys = new String[1024];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = (i % 3 == 0 ? "order:" : i % 3 == 1 ? "v2|payment:" : "x\u00fc\u20ac") + i;
    }
    List<KeyRouter> routers = new ArrayList<>();
    for (HashScheme scheme : HashScheme.values()) {
      if (!ENCODE_TEXT_FIRST.contains(scheme)) {
        routers.add(HashRouter.of(scheme, KeylessPolicy.ROUND_ROBIN));
        routers.add(HashRouter.of(scheme, Placement.JUMP, KeylessPolicy.ROUND_ROBIN));
        routers.add(HashRouter.of(scheme, Placement.JUMP_BACK, KeylessPolicy.ROUND_ROBIN));
      }
    }
    long id = Thread.currentThread().getId();
    for (KeyRouter r : routers) {
      int sink = 0;
      for (int round = 0; round < 200; round++) { // warm-up: JIT
        for (String k : keys) {
          sink += r.partition(k, 24);
        }
      }
      long before = mx.getThreadAllocatedBytes(id);
      for (int round = 0; round < 50; round++) {
        for (String k : keys) {
          sink += r.partition(k, 24);
        }
      }
      long allocated = mx.getThreadAllocatedBytes(id) - before;
      assertThat(sink).isNotNegative();
      // 51,200 routings: anything per message would be megabytes
      assertThat(allocated).as("%s allocated %d bytes", r, allocated).isLessThan(4096);
    }
  }
}
