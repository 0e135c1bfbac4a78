package io.github.routingkit.testkit;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.placement.Placement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What moves when a topic goes from {@code n} to {@code m} partitions: for each router, the
 * fraction of messages of a key sample whose partition changes, next to the minimum a balanced
 * scheme must move of uniformly spread keys ({@code (m − n) / m} when growing, {@code (n − m) / n}
 * when shrinking: the keys that land on, or left, the changed partitions; a skewed sample's
 * traffic can move less, when its hottest keys happen to stay) and what plain modulo moves on a uniform hash
 * ({@code 1 − min(n, m) / lcm(n, m)}; 12 &rarr; 16: 75 %).
 *
 * <p>By default the routers are every {@link HashScheme} under every {@link Placement} (so new
 * schemes and placements appear without code changes); {@link Builder#router} replaces that set.
 * Each added key counts once per occurrence. Immutable once built; the builder is not thread-safe.
 */
public final class ResizeReport {

  /**
   * One router's result.
   */
  public static final class Row extends ComponentValue {
    private final String router;
    private final long moved;
    private final long total;
    private final double movedFraction;

    /**
     * Creates the value.
     *
     * @param router the router's name
     * @param moved messages whose partition changes
     * @param total messages in the sample
     * @param movedFraction {@code moved / total}, in [0, 1]; 0 for an empty sample
     */
    public Row(String router, long moved, long total, double movedFraction) {
      this.router = router;
      this.moved = moved;
      this.total = total;
      this.movedFraction = movedFraction;
    }

    /** Returns the router's name. */
    public String router() {
      return router;
    }

    /** Returns messages whose partition changes. */
    public long moved() {
      return moved;
    }

    /** Returns messages in the sample. */
    public long total() {
      return total;
    }

    /** Returns {@code moved / total}, in [0, 1]; 0 for an empty sample. */
    public double movedFraction() {
      return movedFraction;
    }

    @Override
    Object[] components() {
      return new Object[] {
          "router", router, "moved", moved, "total", total, "movedFraction", movedFraction};
    }
  }

  private final int from;
  private final int to;
  private final List<Row> rows;

  private ResizeReport(int from, int to, List<Row> rows) {
    this.from = from;
    this.to = to;
    this.rows = Collections.unmodifiableList(rows);
  }

  /**
   * Returns a builder for a resize from {@code from} to {@code to} partitions.
   *
   * @throws IllegalArgumentException if either count is below 1
   */
  public static Builder builder(int from, int to) {
    return new Builder(from, to);
  }

  /** Returns the partition count before the resize. */
  public int from() {
    return from;
  }

  /** Returns the partition count after the resize. */
  public int to() {
    return to;
  }

  /** Returns one row per router, in the order they were given. */
  public List<Row> rows() {
    return rows;
  }

  /**
   * Returns the fraction any router must move, in [0, 1): {@code (m − n) / m} growing,
   * {@code (n − m) / n} shrinking, 0 unchanged.
   */
  public double minimumFraction() {
    return minimumFraction(from, to);
  }

  /** Returns {@link #minimumFraction()} for a resize from {@code n} to {@code m} partitions. */
  public static double minimumFraction(int n, int m) {
    checkCounts(n, m);
    return m >= n ? (double) (m - n) / m : (double) (n - m) / n;
  }

  /**
   * Returns what {@code hash mod n → hash mod m} moves for uniformly distributed hashes:
   * {@code 1 − min(n, m) / lcm(n, m)} (12 &rarr; 16: 0.75; 24 &rarr; 25: 0.96).
   */
  public static double moduloFraction(int n, int m) {
    checkCounts(n, m);
    long lcm = (long) n / gcd(n, m) * m;
    return 1 - (double) Math.min(n, m) / lcm;
  }

  /** Returns the report as an aligned text table. */
  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append("resize ").append(from).append(" -> ").append(to).append(" partitions, ")
        .append(Text.num(rows.isEmpty() ? 0 : rows.get(0).total())).append(" messages\n");
    sb.append("minimum for uniform keys      ").append(Text.pct(minimumFraction())).append('\n');
    sb.append("plain modulo, uniform hash    ").append(Text.pct(moduloFraction(from, to)))
        .append("\n\n");
    int width = 6;
    for (Row r : rows) {
      width = Math.max(width, r.router().length());
    }
    sb.append(String.format(java.util.Locale.ROOT, "%-" + width + "s %12s %8s  %s%n", "router",
        "moved", "moved", "x minimum"));
    for (Row r : rows) {
      double min = minimumFraction();
      sb.append(String.format(java.util.Locale.ROOT, "%-" + width + "s %12s %8s  %s%n", r.router(),
          Text.num(r.moved()), Text.pct(r.movedFraction()),
          min == 0 ? "-" : Text.dec(r.movedFraction() / min, 2)));
    }
    return sb.toString();
  }

  /** Returns CSV: {@code router,from,to,moved,total,moved_fraction,minimum_fraction}. */
  public String toCsv() {
    StringBuilder sb = new StringBuilder(
        "router,from,to,moved,total,moved_fraction,minimum_fraction\n");
    for (Row r : rows) {
      sb.append(Text.csvField(r.router())).append(',').append(from).append(',').append(to)
          .append(',').append(r.moved()).append(',').append(r.total()).append(',')
          .append(r.movedFraction()).append(',').append(minimumFraction()).append('\n');
    }
    return sb.toString();
  }

  /** Returns the report as one JSON object. */
  public String toJson() {
    StringBuilder sb = new StringBuilder("{\"from\":").append(from).append(",\"to\":").append(to)
        .append(",\"minimumFraction\":").append(Text.jsonNumber(minimumFraction()))
        .append(",\"moduloFraction\":").append(Text.jsonNumber(moduloFraction(from, to)))
        .append(",\"rows\":[");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      sb.append(i == 0 ? "" : ",").append("{\"router\":").append(Text.jsonString(r.router()))
          .append(",\"moved\":").append(r.moved()).append(",\"total\":").append(r.total())
          .append(",\"movedFraction\":").append(Text.jsonNumber(r.movedFraction())).append('}');
    }
    return sb.append("]}").toString();
  }

  @Override
  public String toString() {
    return toText();
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  private static void checkCounts(int n, int m) {
    if (n < 1 || m < 1) {
      throw new IllegalArgumentException(
          "partition counts were " + n + " -> " + m + ", both must be at least 1");
    }
  }

  /** Accumulates keys for a {@link ResizeReport}; not thread-safe. */
  public static final class Builder {
    private final int from;
    private final int to;
    private final Map<String, KeyRouter> routers = new LinkedHashMap<>();
    private boolean defaults = true;
    private String[] names;
    private KeyRouter[] table;
    private long[] moved;
    private long total;

    private Builder(int from, int to) {
      checkCounts(from, to);
      this.from = from;
      this.to = to;
      for (HashScheme scheme : HashScheme.values()) {
        for (Placement placement : Placement.values()) {
          routers.put(scheme.id() + " / " + placement.id(),
              HashRouter.of(scheme, placement, KeylessPolicy.ROUND_ROBIN));
        }
      }
    }

    /**
     * Adds a router under {@code name}; the first call drops the default set (every scheme under
     * every placement).
     *
     * @throws IllegalStateException after the first key was added
     * @throws NullPointerException if an argument is null
     */
    public Builder router(String name, KeyRouter router) {
      if (table != null) {
        throw new IllegalStateException("add routers before the first key");
      }
      if (defaults) {
        routers.clear();
        defaults = false;
      }
      routers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(router, "router"));
      return this;
    }

    /**
     * Adds one message with key {@code key}.
     *
     * @throws NullPointerException if {@code key} is null
     */
    public Builder add(CharSequence key) {
      Objects.requireNonNull(key, "key");
      if (table == null) {
        names = routers.keySet().toArray(new String[0]);
        table = routers.values().toArray(new KeyRouter[0]);
        moved = new long[table.length];
      }
      total++;
      for (int i = 0; i < table.length; i++) {
        if (table[i].partition(key, from) != table[i].partition(key, to)) {
          moved[i]++;
        }
      }
      return this;
    }

    /** Adds every key of {@code keys}. @throws NullPointerException if a key is null */
    public Builder addAll(Iterable<? extends CharSequence> keys) {
      for (CharSequence key : keys) {
        add(key);
      }
      return this;
    }

    /** Returns the report of the keys added so far. */
    public ResizeReport build() {
      List<Row> rows = new ArrayList<>();
      int i = 0;
      for (String name : routers.keySet()) {
        long m = moved == null ? 0 : moved[i++];
        rows.add(new Row(name, m, total, total == 0 ? 0 : (double) m / total));
      }
      return new ResizeReport(from, to, rows);
    }
  }
}
