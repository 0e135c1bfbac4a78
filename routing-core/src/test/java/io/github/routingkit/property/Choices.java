package io.github.routingkit.property;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random choices one generated case is made of. Generating, it draws from a seeded
 * {@link SplittableRandom} and records every draw; replaying, it returns recorded (possibly
 * shrunk) draws, and 0 once they run out. Generators map smaller draws to simpler values (0 is
 * the simplest: the lower bound, the empty list, the first alternative), so shrinking a case is
 * shrinking its list of draws, whatever map/flatMap built the value. Not thread-safe.
 */
public final class Choices {
  private static final int MAX_DRAWS = 50_000_000;

  private final SplittableRandom random;
  private final long[] replay;
  private long[] recorded = new long[64];
  private int size;

  private Choices(SplittableRandom random, long[] replay) {
    this.random = random;
    this.replay = replay;
  }

  static Choices generating(long seed) {
    return new Choices(new SplittableRandom(seed), null);
  }

  static Choices replaying(long[] draws) {
    return new Choices(null, draws);
  }

  /**
   * Returns a draw in {@code [0, bound)}, or any long if {@code bound == 0}.
   *
   * @throws IllegalArgumentException if {@code bound < 0}
   */
  public long draw(long bound) {
    if (bound < 0) {
      throw new IllegalArgumentException("bound was " + bound + ", must be >= 0");
    }
    long v;
    if (replay == null) {
      v = bound == 0 ? random.nextLong() : random.nextLong(bound);
    } else {
      v = size < replay.length ? replay[size] : 0;
      if (bound != 0) {
        v = Math.floorMod(v, bound);
      }
    }
    return record(v);
  }

  /** Returns an int draw in {@code [0, bound)}, {@code bound >= 1}. */
  public int drawInt(int bound) {
    return (int) draw(bound);
  }

  /**
   * Records {@code value} while generating (a decision the generator made, such as "one more
   * element"), returns the recorded value while replaying, so shrinking can flip it to 0.
   */
  public long forced(long value) {
    long v = replay == null ? value : (size < replay.length ? replay[size] : 0);
    return record(v);
  }

  private long record(long v) {
    if (size == recorded.length) {
      if (size >= MAX_DRAWS) {
        throw new IllegalStateException("a generated case made more than " + MAX_DRAWS + " draws");
      }
      recorded = Arrays.copyOf(recorded, size * 2);
    }
    recorded[size++] = v;
    return v;
  }

  long[] recorded() {
    return Arrays.copyOf(recorded, size);
  }
}
