package io.github.routingkit.property;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator of test values from {@link Choices}, for {@link Property#check}. Values shrink
 * through their draws (see {@link Choices}), so every combinator keeps shrinking. A generator may
 * carry edge cases, which {@link Property#check} runs first, always, before the random cases.
 *
 * @param <T> the generated type
 */
@FunctionalInterface
public interface Gen<T> {

  /** Draws one value. */
  T draw(Choices c);

  /** The values {@link Property#check} always tries first; none by default. */
  default List<T> edges() {
    return List.of();
  }

  /** This generator with {@code edges} as its edge cases (replacing any it had). */
  @SuppressWarnings("unchecked")
  default Gen<T> withEdges(T... edges) {
    return withEdges(Arrays.asList(edges));
  }

  /** This generator with {@code edges} as its edge cases (replacing any it had). */
  default Gen<T> withEdges(List<T> edges) {
    Gen<T> self = this;
    List<T> copy = Collections.unmodifiableList(new ArrayList<>(edges));
    return new Gen<>() {
      @Override
      public T draw(Choices c) {
        return self.draw(c);
      }

      @Override
      public List<T> edges() {
        return copy;
      }
    };
  }

  /** Maps values and edge cases. */
  default <R> Gen<R> map(Function<? super T, ? extends R> f) {
    Gen<R> mapped = c -> f.apply(draw(c));
    List<T> e = edges();
    if (e.isEmpty()) {
      return mapped;
    }
    List<R> me = new ArrayList<>(e.size());
    for (T t : e) {
      me.add(f.apply(t));
    }
    return mapped.withEdges(me);
  }

  /** A generator whose values depend on a value of this one (no edge cases). */
  default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<? extends R>> f) {
    return c -> f.apply(draw(c)).draw(c);
  }

  /** Values satisfying {@code p} (up to 1,000 draws per value; edge cases are filtered too). */
  default Gen<T> filter(Predicate<? super T> p) {
    Gen<T> filtered = c -> {
      for (int i = 0; i < 1000; i++) {
        T t = draw(c);
        if (p.test(t)) {
          return t;
        }
      }
      throw new Discard();
    };
    List<T> kept = new ArrayList<>();
    for (T t : edges()) {
      if (p.test(t)) {
        kept.add(t);
      }
    }
    return filtered.withEdges(kept);
  }

  /** null with probability {@code p} (shrinks toward null), else a value of this generator. */
  default Gen<T> injectNull(double p) {
    long cut = (long) (p * 1000);
    return c -> c.draw(1000) < cut ? null : draw(c);
  }

  /** Lists of {@code min..max} values; shrinks toward shorter lists of simpler values. */
  default Gen<List<T>> list(int min, int max) {
    return c -> {
      int target = size(c, min, max);
      List<T> out = new ArrayList<>(Math.min(target, 1 << 16));
      while (out.size() < max && (out.size() < min || c.forced(out.size() < target ? 1 : 0) != 0)) {
        out.add(draw(c));
      }
      return out;
    };
  }

  /** Lists of {@code min..max} distinct values (as many as 1,000 draws per element find). */
  default Gen<List<T>> uniqueList(int min, int max) {
    return c -> {
      int target = size(c, min, max);
      Set<T> out = new LinkedHashSet<>();
      int misses = 0;
      while (out.size() < max && (out.size() < min || c.forced(out.size() < target ? 1 : 0) != 0)) {
        if (!out.add(draw(c)) && ++misses > 1000) {
          if (out.size() < min) {
            throw new Discard();
          }
          break;
        }
      }
      return new ArrayList<>(out);
    };
  }

  private static int size(Choices c, int min, int max) {
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("sizes " + min + ".." + max);
    }
    // a quarter each: min, max, uniform, small (min..min+8)
    switch (c.drawInt(4)) {
      case 0: return min;
      case 1: return max;
      case 2: return min + (int) c.draw((long) max - min + 1);
      default: return min + (int) c.draw(Math.min(9, (long) max - min + 1));
    }
  }

  // ---- primitives ----

  /** The one value {@code value}. */
  static <T> Gen<T> constant(T value) {
    return c -> value;
  }

  /** Ints in {@code [min, max]}; shrink toward {@code min}; edge cases min, max, and 0, 1 inside. */
  static Gen<Integer> ints(int min, int max) {
    if (max < min) {
      throw new IllegalArgumentException(min + " > " + max);
    }
    Gen<Integer> g = c -> (int) (min + c.draw((long) max - min + 1));
    return g.withEdges(rangeEdges(min, max, 0, 1));
  }

  /** Any int; shrinks toward 0; edge cases 0, 1, -1, MIN_VALUE, MAX_VALUE. */
  static Gen<Integer> ints() {
    Gen<Integer> g = c -> (int) signed(c);
    return g.withEdges(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  /** Longs in {@code [min, max]}; shrink toward {@code min}. */
  static Gen<Long> longs(long min, long max) {
    if (max < min) {
      throw new IllegalArgumentException(min + " > " + max);
    }
    long span = max - min + 1; // 0 means the full range
    Gen<Long> g = c -> min + (span == 0 ? c.draw(0)
        : span > 0 ? c.draw(span) : Long.remainderUnsigned(c.draw(0), span));
    List<Long> e = new ArrayList<>(List.of(min, max));
    if (min < 0 && max > 0) {
      e.add(0L);
    }
    return g.withEdges(e);
  }

  /** Any long, small ones as often as large; shrinks toward 0; edge cases 0, ±1, MIN/MAX_VALUE. */
  static Gen<Long> longs() {
    Gen<Long> g = Gen::signed;
    return g.withEdges(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  private static long signed(Choices c) {
    // magnitude class first so small values (and 0 on shrinking) are common
    int bits = 1 + c.drawInt(64);
    long v = c.draw(0);
    v = bits == 64 ? v : v & ((1L << bits) - 1);
    return c.drawInt(2) == 0 ? v : -v;
  }

  /** true or false; shrinks toward false. */
  static Gen<Boolean> booleans() {
    Gen<Boolean> g = c -> c.drawInt(2) == 1;
    return g.withEdges(false, true);
  }

  /** Doubles in {@code [min, max)}; shrink toward min. */
  static Gen<Double> doubles(double min, double max) {
    return c -> min + (max - min) * (c.draw(1L << 53) / (double) (1L << 53));
  }

  /** One of {@code values}, uniformly; shrinks toward the first. */
  @SafeVarargs
  static <T> Gen<T> of(T... values) {
    return of(Arrays.asList(values));
  }

  /** One of {@code values}, uniformly; shrinks toward the first. */
  static <T> Gen<T> of(List<T> values) {
    List<T> copy = new ArrayList<>(values);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    return c -> copy.get(c.drawInt(copy.size()));
  }

  /** A value of one of {@code gens}, chosen uniformly; edge cases: all of theirs. */
  @SafeVarargs
  static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
    int[] weights = new int[gens.length];
    Arrays.fill(weights, 1);
    return frequency(weights, gens);
  }

  /** A value of {@code gens[i]} with probability {@code weights[i] / sum}; edge cases: all of theirs. */
  @SafeVarargs
  static <T> Gen<T> frequency(int[] weights, Gen<? extends T>... gens) {
    if (weights.length != gens.length || gens.length == 0) {
      throw new IllegalArgumentException("one weight per generator");
    }
    long total = 0;
    for (int w : weights) {
      total += w;
    }
    long sum = total;
    Gen<T> g = c -> {
      long r = c.draw(sum);
      for (int i = 0; i < gens.length; i++) {
        r -= weights[i];
        if (r < 0) {
          return gens[i].draw(c);
        }
      }
      throw new AssertionError();
    };
    List<T> e = new ArrayList<>();
    for (Gen<? extends T> x : gens) {
      e.addAll(x.edges());
    }
    return g.withEdges(e);
  }

  /** Two generators' values combined by {@code f}. */
  static <A, B, R> Gen<R> combine(Gen<A> a, Gen<B> b, BiFunction<? super A, ? super B, ? extends R> f) {
    return c -> f.apply(a.draw(c), b.draw(c));
  }

  /** Three values combined. */
  @FunctionalInterface
  interface F3<A, B, C, R> {
    R apply(A a, B b, C c);
  }

  /** Four values combined. */
  @FunctionalInterface
  interface F4<A, B, C, D, R> {
    R apply(A a, B b, C c, D d);
  }

  /** Five values combined. */
  @FunctionalInterface
  interface F5<A, B, C, D, E, R> {
    R apply(A a, B b, C c, D d, E e);
  }

  /** Three generators' values combined by {@code f}. */
  static <A, B, C, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, F3<? super A, ? super B, ? super C, ? extends R> f) {
    return x -> f.apply(a.draw(x), b.draw(x), c.draw(x));
  }

  /** Four generators' values combined by {@code f}. */
  static <A, B, C, D, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
      F4<? super A, ? super B, ? super C, ? super D, ? extends R> f) {
    return x -> f.apply(a.draw(x), b.draw(x), c.draw(x), d.draw(x));
  }

  /** Five generators' values combined by {@code f}. */
  static <A, B, C, D, E, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e,
      F5<? super A, ? super B, ? super C, ? super D, ? super E, ? extends R> f) {
    return x -> f.apply(a.draw(x), b.draw(x), c.draw(x), d.draw(x), e.draw(x));
  }

  /** Maps of up to {@code max} entries (later duplicate keys replace earlier ones). */
  static <K, V> Gen<java.util.Map<K, V>> maps(Gen<K> keys, Gen<V> values, int max) {
    return combine(keys, values, java.util.AbstractMap.SimpleEntry::new).list(0, max).map(l -> {
      java.util.Map<K, V> m = new java.util.LinkedHashMap<>();
      l.forEach(e -> m.put(e.getKey(), e.getValue()));
      return m;
    });
  }

  /** Strings of {@code min..max} chars of any kind (see {@link #chars()}); edge case "" if allowed. */
  static Gen<String> strings(int min, int max) {
    return strings(chars(), min, max);
  }

  /** Strings of {@code min..max} chars from {@code chars}. */
  static Gen<String> strings(Gen<Character> chars, int min, int max) {
    Gen<String> g = chars.list(min, max).map(cs -> {
      StringBuilder sb = new StringBuilder(cs.size());
      cs.forEach(sb::append);
      return sb.toString();
    });
    return min == 0 ? g.withEdges("") : g.withEdges(List.of());
  }

  /** Strings of {@code min..max} chars from {@code alphabet} (shrink toward its first char). */
  static Gen<String> strings(String alphabet, int min, int max) {
    return strings(Gen.of(alphabet.chars().mapToObj(ch -> (char) ch).toArray(Character[]::new)), min, max);
  }

  /** Letters and digits. */
  String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  /**
   * Any UTF-16 char: half printable ASCII (shrinking to 'a'), then Latin-1, the whole BMP
   * including lone surrogates, control characters, and surrogate halves of supplementary code points.
   */
  static Gen<Character> chars() {
    return c -> {
      switch (c.drawInt(8)) {
        case 0: case 1: case 2: case 3:
          return (char) (' ' + (c.drawInt(95) + ('a' - ' ')) % 95);
        case 4:
          return (char) (0x80 + c.drawInt(0x180));
        case 5:
          return (char) c.drawInt(0x20);
        case 6:
          return (char) (0xD800 + c.drawInt(0x800));
        default:
          return (char) c.drawInt(0x10000);
      }
    };
  }

  /** Byte arrays of {@code min..max} bytes, any values; edge case the empty array if allowed. */
  static Gen<byte[]> bytes(int min, int max) {
    Gen<Byte> b = c -> (byte) c.draw(256);
    Gen<byte[]> g = b.list(min, max).map(l -> {
      byte[] out = new byte[l.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = l.get(i);
      }
      return out;
    });
    return min == 0 ? g.withEdges(new byte[0]) : g.withEdges(List.of());
  }

  /**
   * Values of a generator written against {@link java.util.SplittableRandom} (such as the
   * test kit's {@code Keys}): each value from a {@link java.util.SplittableRandom} seeded by one
   * draw, so the value replays with the case; it shrinks only as far as its seed does.
   */
  static <T> Gen<T> fromRandom(Function<java.util.SplittableRandom, ? extends T> f) {
    return c -> f.apply(new java.util.SplittableRandom(c.draw(0)));
  }

  /** Byte arrays of {@code min..max} bytes from {@code bytes}. */
  static Gen<byte[]> bytes(Gen<Byte> bytes, int min, int max) {
    return bytes.list(min, max).map(l -> {
      byte[] out = new byte[l.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = l.get(i);
      }
      return out;
    });
  }

  /** Chars in {@code [lo, hi]}; shrink toward lo. */
  static Gen<Character> chars(char lo, char hi) {
    return c -> (char) (lo + c.drawInt(hi - lo + 1));
  }

  /** UTF-8 bytes of the strings of {@code g} (edge cases mapped too). */
  static Gen<byte[]> utf8(Gen<String> g) {
    return g.map(s -> s.getBytes(StandardCharsets.UTF_8));
  }

  /** Values of an enum, shrinking toward the first constant; edge cases: every constant. */
  static <E extends Enum<E>> Gen<E> enums(Class<E> type) {
    E[] all = type.getEnumConstants();
    return Gen.of(all).withEdges(all);
  }

  /** The edge values among {@code extra} that lie in {@code [min, max]}, with min and max. */
  static List<Integer> rangeEdges(int min, int max, int... extra) {
    Set<Integer> e = new LinkedHashSet<>();
    e.add(min);
    for (int x : extra) {
      if (x >= min && x <= max) {
        e.add(x);
      }
    }
    e.add(max);
    return new ArrayList<>(e);
  }

  /** Thrown by a generator that cannot produce a value (the case is skipped, not failed). */
  final class Discard extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Discard() {
      super("generator discarded the case", null, false, false);
    }
  }
}
