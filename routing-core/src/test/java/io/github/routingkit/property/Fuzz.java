package io.github.routingkit.property;

/**
 * A fuzz loop over consecutive seeds, for the hostile-input fuzzers: it runs a fixed number of
 * cases per property from seed {@code -Dfuzz.base} (default 20,261,201), so every run on every
 * machine runs the same cases, or exactly one case with {@code -Dfuzz.seed=S}. {@code -Dfuzz.scale=K}
 * (default 1) runs K times as many cases, for a longer search (CONTRIBUTING.md). No wall-clock
 * budget. A failure names the seed that replays it; {@code -Dfuzz.verbose=true} prints each
 * property's case count and the fuzzers' histograms.
 */
public final class Fuzz {
  private Fuzz() {}

  /** The multiplier of every case count ({@code -Dfuzz.scale}, default 1). */
  public static final int SCALE = Math.max(1, Integer.getInteger("fuzz.scale", 1));

  private static final boolean VERBOSE = Boolean.getBoolean("fuzz.verbose");

  /** One case, built from its seed; throws on a broken guarantee. */
  public interface Case {
    void run(long seed) throws Exception;
  }

  /** Returns {@code cases} times {@link #SCALE}: the case count of a fuzzer with its own loop. */
  public static int cases(int cases) {
    return Math.multiplyExact(cases, SCALE);
  }

  /** Returns the first seed of a run: {@code -Dfuzz.seed} if set, else {@code -Dfuzz.base}. */
  public static long base() {
    Long one = Long.getLong("fuzz.seed");
    return one != null ? one : Long.getLong("fuzz.base", 20_261_201L);
  }

  /** Whether only the one case {@code -Dfuzz.seed} is to run. */
  public static boolean single() {
    return Long.getLong("fuzz.seed") != null;
  }

  /**
   * Runs {@code c} on seeds base, base + 1, ..., {@link #cases(int) cases(cases)} of them (or on
   * the one seed given).
   *
   * @throws AssertionError naming the property, the seed and the cause, on the first failure
   */
  public static void run(String name, int cases, Case c) {
    long seed = base();
    int n = single() ? 1 : cases(cases);
    for (int i = 0; i < n; i++) {
      long s = seed + i;
      try {
        c.run(s);
      } catch (Throwable e) {
        throw new AssertionError(name + " failed at -Dfuzz.seed=" + s + " after " + i
            + " cases: " + e, e);
      }
    }
    log(name + ": " + n + " cases held");
  }

  /** Prints a fuzzer's statistics line, with {@code -Dfuzz.verbose=true} only. */
  public static void log(String line) {
    if (VERBOSE) {
      System.out.println("FUZZ " + line);
    }
  }
}
