package io.github.routingkit.router.segment;

import static io.github.routingkit.testing.Concurrency.onEightThreads;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.Routers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The per-count layout memo under concurrent routing: layouts never mix up, bad counts stay rejected. */
class SegmentLayoutsConcurrencyTest {

  /** 8 threads over 24 partition counts (3 times the layout cache): layouts never mix up. */
  @Test
  void segmentMemoConcurrent() throws Exception {
    SegmentRouter seg = SegmentRouter.builder(Routers.consistentJumpBack())
        .weights("a:3,b:1,*:2").exclusive("a").build();
    int[] ns = new int[24];
    for (int i = 0; i < ns.length; i++) {
      ns[i] = 6 + i * 5;
    }
    Map<Integer, Map<String, List<Integer>>> expect = new HashMap<>();
    SegmentRouter fresh = SegmentRouter.builder(Routers.consistentJumpBack())
        .weights("a:3,b:1,*:2").exclusive("a").build();
    for (int n : ns) {
      expect.put(n, fresh.layout(n));
    }
    String failure = onEightThreads(t -> {
      Random rnd = new Random(t);
      for (int i = 0; i < 200_000; i++) {
        int n = ns[rnd.nextInt(ns.length)];
        String tenant = new String[] {"a", "b", "c", ""}[rnd.nextInt(4)];
        byte[] k = (tenant + ":" + rnd.nextInt(1000)).getBytes(UTF_8);
        int p = seg.partition(k, n);
        String segment = tenant.equals("a") || tenant.equals("b") ? tenant : "*";
        if (!expect.get(n).get(segment).contains(p)) {
          return "n=" + n + " tenant " + tenant + " p=" + p;
        }
        if (i % 1000 == 0) {
          String bad = rejectsBadCounts(seg, k, i);
          if (bad != null) {
            return bad;
          }
        }
      }
      return null;
    });
    assertThat(failure).isNull();
  }

  /** Bad counts between good ones: each is rejected, and the cache keeps working after. */
  private static String rejectsBadCounts(SegmentRouter seg, byte[] k, int i) {
    int[] bad = {-i - 1, 0, 1, Integer.MAX_VALUE}; // 1: no room for the exclusive segment
    for (int n : bad) {
      try {
        seg.partition(k, n);
        return "accepted " + n + " partitions";
      } catch (IllegalArgumentException expected) {
        // RoutingConfigException for 1, plain IllegalArgumentException for the others
      }
    }
    return null;
  }
}
