package io.github.routingkit.config;

import java.util.Collection;

/**
 * Decides which known property name a mistyped {@code routing.*} key most likely meant, for the
 * "did you mean" hint of an unknown-property error: the write side's keys and the consumer side's
 * {@code routing.assignor.*} keys (through {@link RoutingSpec#nearest}). Stateless.
 */
final class DidYouMean {
  private DidYouMean() {}

  /**
   * The name in {@code known} within edit distance 2 of {@code key} (a typo: a letter missing,
   * extra, swapped or wrong), the closest first; null if none is that close.
   */
  static String nearest(String key, Collection<String> known) {
    String best = null;
    int bestDistance = 3;
    for (String k : known) {
      int d = editDistance(key, k, bestDistance);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Optimal-string-alignment distance, or {@code limit} if it is at least that. */
  private static int editDistance(String a, String b, int limit) {
    if (Math.abs(a.length() - b.length()) >= limit) {
      return limit;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1); // two neighbours swapped
        }
        d[i][j] = v;
      }
    }
    return Math.min(d[a.length()][b.length()], limit);
  }
}
