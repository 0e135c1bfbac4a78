package io.github.routingkit.property;

/**
 * A time-boxed fuzz loop over consecutive seeds, for the hostile-input fuzzers: it runs
 * {@code -Dfuzz.seconds} (default 3) per property from seed {@code -Dfuzz.base} (default
 * 20,261,201, so every run starts with the same cases; a faster machine only runs more of them),
 * or exactly one case with {@code -Dfuzz.seed=S}. A failure names the seed that replays it.
 */
public final class Fuzz {
  private Fuzz() {}

  /** Seconds each property runs for. */
  public static final long SECONDS = Long.getLong("fuzz.seconds", 3);

  /** One case, built from its seed; throws on a broken guarantee. */
  public interface Case {
    void run(long seed) throws Exception;
  }

  /**
   * Runs {@code c} on seeds base, base + 1, ... until the time is up (or the one seed given).
   *
   * @throws AssertionError naming the property, the seed and the cause, on the first failure
   */
  public static void run(String name, Case c) {
    Long one = Long.getLong("fuzz.seed");
    long deadline = System.nanoTime() + SECONDS * 1_000_000_000L;
    long seed = one != null ? one : Long.getLong("fuzz.base", 20_261_201L);
    int n = 0;
    long worstMs = 0;
    long worstSeed = 0;
    do {
      long s = seed + n;
      long t0 = System.nanoTime();
      try {
        c.run(s);
      } catch (Throwable e) {
        throw new AssertionError(name + " failed at -Dfuzz.seed=" + s + " after " + n
            + " cases: " + e, e);
      }
      long ms = (System.nanoTime() - t0) / 1_000_000;
      if (ms > worstMs) {
        worstMs = ms;
        worstSeed = s;
      }
      n++;
    } while (one == null && System.nanoTime() < deadline);
    System.out.println("FUZZ " + name + ": " + n + " cases held, slowest " + worstMs
        + " ms at seed " + worstSeed);
  }
}
