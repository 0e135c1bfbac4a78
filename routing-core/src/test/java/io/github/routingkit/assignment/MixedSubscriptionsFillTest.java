package io.github.routingkit.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MixedSubscriptions#fillLevel} gives the counts and loads of the fill step's one-at-a-time
 * picks (least load per weight after the take, ties by first slot) wherever it answers.
 */
class MixedSubscriptionsFillTest {

  @Test
  void closedFormFillEqualsOneAtATimePicks() {
    int answered = 0;
    for (int seed = 0; seed < 20_000; seed++) {
      Random r = new Random(seed);
      int members = 1 + r.nextInt(12);
      int base = r.nextInt(3);
      int size = 1 + r.nextInt(members);
      long[] load = new long[members];
      long[] w = new long[members];
      long weight = 1 + r.nextInt(4);
      boolean mixed = r.nextInt(5) == 0;
      int[] slotMember = new int[base + size];
      int[] perm = shuffled(members, r);
      for (int a = 0; a < size; a++) {
        slotMember[base + a] = perm[a];
      }
      for (int k = 0; k < members; k++) {
        load[k] = r.nextInt(4) == 0 ? 0 : r.nextInt(60);
        w[k] = mixed ? 1 + r.nextInt(4) : weight;
      }
      long c = 1 + r.nextInt(5);
      int f = 1 + r.nextInt(80);
      int[] cnt = new int[base + size];
      long[] expectLoad = load.clone();
      int[] expectCnt = cnt.clone();
      for (int u = 0; u < f; u++) {
        int best = -1;
        for (int a = 0; a < size; a++) {
          int k = slotMember[base + a];
          if (best < 0) {
            best = a;
            continue;
          }
          int kb = slotMember[base + best];
          if ((expectLoad[k] + c) * w[kb] < (expectLoad[kb] + c) * w[k]) {
            best = a;
          }
        }
        expectCnt[base + best]++;
        expectLoad[slotMember[base + best]] += c;
      }
      long[] before = load.clone();
      boolean done = MixedSubscriptions.fillLevel(load, w, slotMember, cnt, base, size, c, f);
      if (!done) {
        assertThat(load).as("seed %d: declined but changed loads", seed).isEqualTo(before);
        continue;
      }
      answered++;
      assertThat(cnt).as("seed %d counts", seed).isEqualTo(expectCnt);
      assertThat(load).as("seed %d loads", seed).isEqualTo(expectLoad);
    }
    // Equal weights in four seeds of five: most cases take the closed form.
    assertThat(answered).isGreaterThan(14_000);
  }

  private static int[] shuffled(int n, Random r) {
    int[] p = new int[n];
    Arrays.setAll(p, i -> i);
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
