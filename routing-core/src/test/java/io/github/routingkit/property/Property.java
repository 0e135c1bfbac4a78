package io.github.routingkit.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs a property on JUnit Jupiter: the generators' edge cases first (always), then {@code tries}
 * random cases from one seed. On a failure it shrinks the case (fewer and smaller draws, see
 * {@link Choices}) and fails with the seed, the shrunk and the original counterexample, and the
 * system property that replays it: {@code -Droutingkit.seed=<seed>} (with {@code -Dtest=Class#method}
 * to rerun one property). Without that property each property runs from a fixed seed of its own
 * (derived from its class and method name), so every run on every machine checks the same cases;
 * {@code -Droutingkit.seed=random} draws a fresh seed per property, to search further. The
 * failure text goes into the AssertionError only (never printed by the runner), so a self-test
 * that expects a failure leaves nothing in the build log. No wall-clock budget: shrinking stops
 * after a fixed number of runs.
 *
 * <pre>{@code
 * @Test
 * void staysInRange() {
 *   Property.check(1000, RoutingGen.keys(), RoutingGen.partitions(), (key, n) ->
 *       assertThat(router.partition(key, n)).isBetween(0, n - 1));
 * }
 * }</pre>
 */
public final class Property {
  /** The system property holding the seed to replay. */
  public static final String SEED = "routingkit.seed";

  private static final int SHRINK_RUNS = 3000;
  /** The value of {@value #SEED} that asks for a fresh random seed per property. */
  public static final String RANDOM = "random";

  private Property() {}

  /** A property of one value. */
  @FunctionalInterface
  public interface P1<A> {
    void check(A a) throws Throwable;
  }

  /** A property of two values. */
  @FunctionalInterface
  public interface P2<A, B> {
    void check(A a, B b) throws Throwable;
  }

  /** A property of three values. */
  @FunctionalInterface
  public interface P3<A, B, C> {
    void check(A a, B b, C c) throws Throwable;
  }

  /** A property of four values. */
  @FunctionalInterface
  public interface P4<A, B, C, D> {
    void check(A a, B b, C c, D d) throws Throwable;
  }

  /** A property of five values. */
  @FunctionalInterface
  public interface P5<A, B, C, D, E> {
    void check(A a, B b, C c, D d, E e) throws Throwable;
  }

  /** A property of six values. */
  @FunctionalInterface
  public interface P6<A, B, C, D, E, F> {
    void check(A a, B b, C c, D d, E e, F f) throws Throwable;
  }

  public static <A, B, C, D, E> void check(int tries, Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
      Gen<E> e, P5<A, B, C, D, E> p) {
    run(tries, List.of(a, b, c, d, e),
        v -> p.check(cast(v[0]), cast(v[1]), cast(v[2]), cast(v[3]), cast(v[4])));
  }

  public static <A, B, C, D, E, F> void check(int tries, Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
      Gen<E> e, Gen<F> f, P6<A, B, C, D, E, F> p) {
    run(tries, List.of(a, b, c, d, e, f),
        v -> p.check(cast(v[0]), cast(v[1]), cast(v[2]), cast(v[3]), cast(v[4]), cast(v[5])));
  }

  public static <A> void check(int tries, Gen<A> a, P1<A> p) {
    run(tries, List.of(a), v -> p.check(cast(v[0])));
  }

  public static <A, B> void check(int tries, Gen<A> a, Gen<B> b, P2<A, B> p) {
    run(tries, List.of(a, b), v -> p.check(cast(v[0]), cast(v[1])));
  }

  public static <A, B, C> void check(int tries, Gen<A> a, Gen<B> b, Gen<C> c, P3<A, B, C> p) {
    run(tries, List.of(a, b, c), v -> p.check(cast(v[0]), cast(v[1]), cast(v[2])));
  }

  public static <A, B, C, D> void check(int tries, Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
      P4<A, B, C, D> p) {
    run(tries, List.of(a, b, c, d), v -> p.check(cast(v[0]), cast(v[1]), cast(v[2]), cast(v[3])));
  }

  @SuppressWarnings("unchecked")
  private static <T> T cast(Object o) {
    return (T) o;
  }

  private interface Body {
    void check(Object[] values) throws Throwable;
  }

  /**
   * The seed of a property run from the calling test method: {@code -Droutingkit.seed} if set
   * ({@value #RANDOM}: a fresh one), else the fixed seed of the caller's name (see
   * {@link #seed(String)}).
   */
  public static long seed() {
    return seed(caller());
  }

  /**
   * The seed of the property named {@code name} ({@code Class#method}): {@code -Droutingkit.seed}
   * if set ({@value #RANDOM}: a fresh random one), else a fixed value mixed from the name, the same
   * in every run.
   *
   * @throws IllegalArgumentException if {@code -Droutingkit.seed} is neither a long nor
   *     {@value #RANDOM}
   */
  public static long seed(String name) {
    String s = System.getProperty(SEED);
    if (s != null && !s.isBlank()) {
      if (s.trim().equals(RANDOM)) {
        return ThreadLocalRandom.current().nextLong();
      }
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("-D" + SEED + " was '" + s + "', must be a long or '"
            + RANDOM + "'", e);
      }
    }
    return caseSeed(0x5EED_2026_1202L, name.hashCode());
  }

  /** The seed of random case {@code i} of a run with seed {@code seed}. */
  static long caseSeed(long seed, int i) {
    long z = seed + 0x9E3779B97F4A7C15L * (i + 1);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static void run(int tries, List<Gen<?>> gens, Body body) {
    if (tries < 1) {
      throw new IllegalArgumentException("tries was " + tries + ", must be >= 1");
    }
    String name = caller();
    long seed = seed(name);
    // edge cases: row r takes edge r (cycled) of every generator that has edges, a random value
    // of the others
    int rows = 0;
    for (Gen<?> g : gens) {
      rows = Math.max(rows, g.edges().size());
    }
    for (int r = 0; r < rows; r++) {
      Object[] values = new Object[gens.size()];
      Choices c = Choices.generating(caseSeed(~seed, r));
      try {
        for (int i = 0; i < values.length; i++) {
          List<?> e = gens.get(i).edges();
          values[i] = e.isEmpty() ? gens.get(i).draw(c) : e.get(r % e.size());
        }
      } catch (Gen.Discard d) {
        continue;
      }
      Throwable t = attempt(body, values);
      if (t != null) {
        throw failure(name, seed, "edge case " + (r + 1) + " of " + rows, values, null, 0, t);
      }
    }
    int discarded = 0;
    for (int i = 0; i < tries; i++) {
      Choices c = Choices.generating(caseSeed(seed, i));
      Object[] values;
      try {
        values = draw(gens, c);
      } catch (Gen.Discard d) {
        if (++discarded > tries) {
          throw new AssertionError(name + ": generators discarded more than " + tries + " cases");
        }
        continue;
      }
      Throwable t = attempt(body, values);
      if (t != null) {
        shrinkAndFail(name, seed, i, tries, gens, body, c.recorded(), values, t);
      }
    }
  }

  private static Object[] draw(List<Gen<?>> gens, Choices c) {
    Object[] values = new Object[gens.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = gens.get(i).draw(c);
    }
    return values;
  }

  private static Throwable attempt(Body body, Object[] values) {
    try {
      body.check(values);
      return null;
    } catch (org.opentest4j.TestAbortedException e) {
      return null;
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError && !(t instanceof OutOfMemoryError || t instanceof StackOverflowError)) {
        throw (VirtualMachineError) t;
      }
      return t;
    }
  }

  private static void shrinkAndFail(String name, long seed, int index, int tries, List<Gen<?>> gens,
      Body body, long[] draws, Object[] original, Throwable error) {
    Shrinker sh = new Shrinker(gens, body, error, draws, original);
    boolean improved = true;
    while (improved && sh.budgetLeft()) {
      improved = false;
      // delete blocks of draws, large blocks first (halves, quarters, ... then 16..1, with 3 and
      // 6 for the 3-draw elements of strings)
      List<Integer> sizes = new ArrayList<>();
      for (int k = Integer.highestOneBit(Math.max(1, sh.best.length)); k > 16; k /= 2) {
        sizes.add(k);
      }
      sizes.addAll(List.of(16, 8, 6, 4, 3, 2, 1));
      for (int k : sizes) {
        int i = 0;
        while (i + k <= sh.best.length && sh.budgetLeft()) {
          long[] best = sh.best;
          long[] cand = new long[best.length - k];
          System.arraycopy(best, 0, cand, 0, i);
          System.arraycopy(best, i + k, cand, i, best.length - i - k);
          if (sh.tryCase(cand)) {
            improved = true;
          } else {
            i += k > 16 ? k / 2 : 1;
          }
        }
      }
      // make each draw smaller: 0, then halves, then minus one
      for (int i = 0; i < sh.best.length && sh.budgetLeft(); i++) {
        long v = sh.best[i];
        if (v == 0) {
          continue;
        }
        if (sh.tryValue(i, 0)) {
          improved = true;
          continue;
        }
        while (sh.budgetLeft() && i < sh.best.length && sh.best[i] != 0 && sh.tryValue(i, sh.best[i] / 2)) {
          improved = true;
        }
        if (sh.budgetLeft() && i < sh.best.length && sh.best[i] != 0
            && sh.tryValue(i, sh.best[i] - Long.signum(sh.best[i]))) {
          improved = true;
        }
      }
    }
    throw failure(name, seed, "random case " + (index + 1) + " of " + tries, sh.bestValues, original,
        sh.steps, sh.bestError);
  }

  /** The state of one shrink: the smallest failing draws found so far, within a budget. */
  private static final class Shrinker {
    final List<Gen<?>> gens;
    final Body body;
    final Class<?> errorType;
    long[] best;
    Object[] bestValues;
    Throwable bestError;
    int runs;
    int steps;

    Shrinker(List<Gen<?>> gens, Body body, Throwable error, long[] draws, Object[] values) {
      this.gens = gens;
      this.body = body;
      this.errorType = error.getClass();
      this.best = draws;
      this.bestValues = values;
      this.bestError = error;
    }

    boolean budgetLeft() {
      return runs < SHRINK_RUNS;
    }

    boolean tryValue(int i, long v) {
      long[] cand = best.clone();
      cand[i] = v;
      return tryCase(cand);
    }

    boolean tryCase(long[] cand) {
      runs++;
      Choices c = Choices.replaying(cand);
      Object[] values;
      try {
        values = draw(gens, c);
      } catch (RuntimeException e) {
        return false;
      }
      Throwable t = attempt(body, values);
      if (t == null || t.getClass() != errorType) {
        return false;
      }
      long[] used = c.recorded();
      if (used.length < best.length || (used.length == best.length && smaller(used, best))) {
        best = used;
        bestValues = values;
        bestError = t;
        steps++;
        return true;
      }
      return false;
    }
  }

  private static boolean smaller(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return Long.compareUnsigned(Math.abs(a[i]), Math.abs(b[i])) < 0;
      }
    }
    return false;
  }

  private static AssertionError failure(String name, long seed, String which, Object[] values,
      Object[] original, int steps, Throwable cause) {
    StringBuilder sb = new StringBuilder();
    sb.append("Property ").append(name).append(" falsified by ").append(which)
        .append(", seed ").append(seed).append('\n');
    sb.append(original == null ? "Counterexample:\n"
        : "Shrunk counterexample (" + steps + " shrink steps):\n");
    appendValues(sb, values);
    if (original != null) {
      sb.append("Original counterexample:\n");
      appendValues(sb, original);
    }
    sb.append("Replay: -D").append(SEED).append('=').append(seed)
        .append(" -Dtest='").append(name).append("'\n");
    sb.append("Failure: ").append(cause);
    return new AssertionError(sb.toString(), cause);
  }

  private static void appendValues(StringBuilder sb, Object[] values) {
    for (int i = 0; i < values.length; i++) {
      sb.append("  arg").append(i).append(" = ").append(describe(values[i])).append('\n');
    }
  }

  /** A short, readable rendering of a generated value (long strings and lists are cut). */
  public static String describe(Object o) {
    if (o instanceof String) {
      String s = (String) o;
      StringBuilder sb = new StringBuilder("\"");
      int n = Math.min(s.length(), 120);
      for (int i = 0; i < n; i++) {
        char ch = s.charAt(i);
        if (ch == '"' || ch == '\\') {
          sb.append('\\').append(ch);
        } else if (ch < 0x20 || ch > 0x7e) {
          sb.append(String.format("\\u%04x", (int) ch));
        } else {
          sb.append(ch);
        }
      }
      sb.append('"');
      if (s.length() > n) {
        sb.append("... (").append(s.length()).append(" chars)");
      }
      return sb.toString();
    }
    if (o instanceof byte[]) {
      byte[] b = (byte[]) o;
      StringBuilder sb = new StringBuilder("bytes[").append(b.length).append("] 0x");
      for (int i = 0; i < Math.min(b.length, 64); i++) {
        sb.append(String.format("%02x", b[i] & 0xff));
      }
      return sb.append(b.length > 64 ? "..." : "").toString();
    }
    if (o instanceof Collection) {
      Collection<?> c = (Collection<?>) o;
      StringBuilder sb = new StringBuilder("[");
      int i = 0;
      for (Object x : c) {
        if (i == 20) {
          sb.append(", ... (").append(c.size()).append(" elements)");
          break;
        }
        sb.append(i++ == 0 ? "" : ", ").append(describe(x));
      }
      return sb.append(']').toString();
    }
    if (o instanceof Map) {
      return "map of " + ((Map<?, ?>) o).size() + " " + describe(new ArrayList<>(((Map<?, ?>) o).entrySet()));
    }
    if (o instanceof Object[]) {
      return describe(Arrays.asList((Object[]) o));
    }
    if (o instanceof int[]) {
      return Arrays.toString((int[]) o);
    }
    String s = String.valueOf(o);
    return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " chars)" : s;
  }

  private static String caller() {
    return StackWalker.getInstance().walk(frames -> frames
        .filter(f -> !f.getClassName().equals(Property.class.getName()))
        .filter(f -> !f.getClassName().contains("$$Lambda"))
        .findFirst()
        .map(f -> {
          String cls = f.getClassName();
          int dollar = cls.indexOf('$');
          cls = dollar < 0 ? cls : cls.substring(0, dollar);
          String method = f.getMethodName();
          if (method.startsWith("lambda$")) { // called from a lambda inside the test method
            int end = method.indexOf('$', 7);
            method = method.substring(7, end < 0 ? method.length() : end);
          }
          return cls.substring(cls.lastIndexOf('.') + 1) + "#" + method;
        })
        .orElse("?"));
  }
}
