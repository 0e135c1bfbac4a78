package io.github.routingkit.router.canary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.routingkit.AbstractKeyRouter;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.placement.Placement;
import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import io.github.routingkit.property.RoutingGen;
import io.github.routingkit.router.HashRouter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/**
 * The canary layer's guarantees, each a property of the router itself (which router a key goes to
 * is read off a canary of two constant routers): monotone in the share, exactly the old router at
 * share 0 and the new one at share 1, the in-canary fraction of 100,000 keys within 6 standard
 * deviations of the share, and independent of the routers' own hash (canary keys spread evenly
 * over the old router's partitions, chi-square below its 1e-9 quantile). {@link #brokenCanariesAreCaught}
 * shows each property fails on a deliberately broken canary.
 */
class CanaryProperties {
  /** Builds a canary router: the real one, or a broken one. */
  interface Canary {
    KeyRouter of(KeyRouter oldRouter, KeyRouter newRouter, double share);
  }

  static final Canary REAL = CanaryRouter::of;

  /** Always partition {@code p}: tells which side of a canary a key went to. */
  static final class Constant extends AbstractKeyRouter {
    private static final long serialVersionUID = 1L;
    private final int p;

    Constant(int p) {
      this.p = p;
    }

    @Override
    protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
      return p;
    }

    @Override
    public int keylessPartition(int numPartitions) {
      return p;
    }

    @Override
    public KeylessPolicy keylessPolicy() {
      return KeylessPolicy.ROUND_ROBIN;
    }
  }

  static boolean inCanary(Canary c, byte[] key, double share) {
    return c.of(new Constant(0), new Constant(1), share).partition(key, 2) == 1;
  }

  // --- the properties, as checks that throw AssertionError -----------------------------------

  static void monotone(Canary c, List<byte[]> keys, double a, double b) {
    double lo = Math.min(a, b);
    double hi = Math.max(a, b);
    for (byte[] k : keys) {
      if (inCanary(c, k, lo)) {
        assertThat(inCanary(c, k, hi)).as("key in at share %s must be in at %s", lo, hi).isTrue();
      }
    }
  }

  static void ends(Canary c, KeyRouter oldRouter, KeyRouter newRouter, List<byte[]> keys, int n) {
    KeyRouter zero = c.of(oldRouter, newRouter, 0);
    KeyRouter one = c.of(oldRouter, newRouter, 1);
    for (byte[] k : keys) {
      assertThat(zero.partition(k, n)).as("share 0 is the old router").isEqualTo(oldRouter.partition(k, n));
      assertThat(one.partition(k, n)).as("share 1 is the new router").isEqualTo(newRouter.partition(k, n));
      String text = new String(k, StandardCharsets.UTF_8);
      assertThat(zero.partition(text, n)).isEqualTo(oldRouter.partition(text, n));
      assertThat(one.partition(text, n)).isEqualTo(newRouter.partition(text, n));
    }
  }

  static void fraction(Canary c, List<byte[]> keys, double share) {
    long in = 0;
    for (byte[] k : keys) {
      if (inCanary(c, k, share)) {
        in++;
      }
    }
    double f = (double) in / keys.size();
    double sigma = Math.sqrt(share * (1 - share) / keys.size());
    assertThat(Math.abs(f - share)).as("in-canary fraction %s at share %s", f, share)
        .isLessThanOrEqualTo(6 * sigma + 1e-12);
  }

  /** Canary keys per old partition against uniform: chi-square below the 1e-9 quantile. */
  static void independent(Canary c, KeyRouter oldRouter, List<byte[]> keys, int n, double share) {
    long[] inCanary = new long[n];
    long[] all = new long[n];
    for (byte[] k : keys) {
      int p = oldRouter.partition(k, n);
      all[p]++;
      if (inCanary(c, k, share)) {
        inCanary[p]++;
      }
    }
    // expected per partition: share of that partition's keys (so uneven old partitions do not count)
    double chi2 = 0;
    for (int p = 0; p < n; p++) {
      double e = all[p] * share;
      if (e > 0) {
        chi2 += (inCanary[p] - e) * (inCanary[p] - e) / (e * (1 - share));
      }
    }
    int df = n - 1;
    double z = 6.0; // upper 1e-9 tail
    double q = df * Math.pow(1 - 2.0 / (9 * df) + z * Math.sqrt(2.0 / (9 * df)), 3);
    assertThat(chi2).as("canary keys over %s old partitions, share %s", n, share).isLessThan(q);
  }

  // --- inputs --------------------------------------------------------------------------------

  static List<byte[]> sample(long seed, int count) {
    SplittableRandom r = new SplittableRandom(seed);
    List<byte[]> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String k = switch (i % 4) {
        case 0 -> "order-" + i;
        case 1 -> Long.toString(1_700_000_000_000L + i);
        case 2 -> "user:" + Long.toHexString(r.nextLong());
        default -> "k" + r.nextInt(1 << 30) + "/" + i;
      };
      out.add(k.getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  static final List<KeyRouter> ROUTERS = List.of(
      HashRouter.of(HashScheme.KAFKA_MURMUR2, KeylessPolicy.ROUND_ROBIN),
      HashRouter.of(HashScheme.XXH3_64, Placement.JUMP, KeylessPolicy.ROUND_ROBIN),
      HashRouter.of(HashScheme.XXH3_64, HashScheme.XXH3_64.moduloPlacement(), KeylessPolicy.ROUND_ROBIN),
      HashRouter.of(HashScheme.PULSAR_MURMUR3, KeylessPolicy.ROUND_ROBIN),
      HashRouter.of(HashScheme.PULSAR_JAVA_STRING, KeylessPolicy.ROUND_ROBIN),
      RoutingSpec.parse("routing.segment.ranges=a:0-2,b:3-4, routing.placement=jump").keyRouter());

  static Gen<Double> shares() {
    return Gen.<Double>oneOf(Gen.ints(0, 1_000_000).map(i -> i / 1e6),
        Gen.of(0.0, 0.01, 0.05, 0.25, 0.5, 1.0, 0x1p-53, 1 - 0x1p-53));
  }

  // --- the properties on the real canary ---------------------------------------------------------

  @Test
  void raisingTheShareOnlyAddsKeys() {
    Property.check(300, RoutingGen.keyBytes().list(1, 200), shares(), shares(),
        (keys, a, b) -> monotone(REAL, keys, a, b));
  }

  @Test
  void eachKeySwitchesAtMostOnceOverAPlan() {
    double[] plan = {0, 0.01, 0.05, 0.25, 1};
    for (byte[] k : sample(17, 20_000)) {
      int switches = 0;
      for (int i = 1; i < plan.length; i++) {
        if (inCanary(REAL, k, plan[i]) != inCanary(REAL, k, plan[i - 1])) {
          switches++;
        }
      }
      assertThat(switches).isEqualTo(1); // in at 100 %, out at 0 %: exactly once
    }
  }

  @Test
  void shareZeroIsTheOldRouterAndShareOneTheNew() {
    Property.check(300, Gen.of(ROUTERS), Gen.of(ROUTERS), RoutingGen.keyBytes().list(1, 50),
        RoutingGen.partitions(5, 1000), (o, nw, keys, n) -> ends(REAL, o, nw, keys, n));
  }

  @Test
  void inCanaryFractionMatchesTheShare() {
    List<byte[]> keys = sample(Property.seed(), 100_000);
    Property.check(30, shares(), share -> fraction(REAL, keys, share));
  }

  @Test
  void canaryKeysSpreadEvenlyOverTheOldRoutersPartitions() {
    List<byte[]> keys = sample(Property.seed(), 100_000);
    Property.check(30, Gen.of(ROUTERS.subList(0, 5)), Gen.of(10, 12, 20, 25, 50, 100),
        Gen.of(0.01, 0.05, 0.25, 0.5), (old, n, share) -> independent(REAL, old, keys, n, share));
  }

  // --- broken canaries: each property above must catch one ---------------------------------------

  /** The percent bucket of the partitioner's own hash (murmur2 % 100): not independent. */
  static final Canary OWN_HASH = (o, nw, share) -> new Split(o, nw,
      k -> ((HashScheme.KAFKA_MURMUR2.hash(k, 0, k.length) & 0x7fffffff) % 100) < share * 100);
  /** Re-seeded per share (a fresh draw at every step): not monotone. */
  static final Canary RESEEDED = (o, nw, share) -> new Split(o, nw,
      k -> (LongHashFunction.xx3(Double.doubleToLongBits(share)).hashBytes(k) >>> 11) * 0x1p-53 < share);
  /** A percent bucket from a signed hash ({@code h % 100} is negative for half the keys). */
  static final Canary COARSE = (o, nw, share) -> new Split(o, nw,
      k -> LongHashFunction.xx3(CanaryRouter.SEED).hashBytes(k) % 100 < share * 100);
  /** Keys in the canary go to the old router: the ends are swapped. */
  static final Canary SWAPPED = (o, nw, share) -> CanaryRouter.of(nw, o, share);

  /** A canary by an arbitrary predicate of the key. */
  static final class Split extends AbstractKeyRouter {
    private static final long serialVersionUID = 1L;
    private final KeyRouter o;
    private final KeyRouter nw;
    private final java.util.function.Predicate<byte[]> in;

    Split(KeyRouter o, KeyRouter nw, java.util.function.Predicate<byte[]> in) {
      this.o = o;
      this.nw = nw;
      this.in = in;
    }

    @Override
    protected int route(byte[] key, int offset, int length, byte[] value, int numPartitions) {
      byte[] k = java.util.Arrays.copyOfRange(key, offset, offset + length);
      return (in.test(k) ? nw : o).partition(k, numPartitions);
    }

    @Override
    public int keylessPartition(int numPartitions) {
      return o.keylessPartition(numPartitions);
    }

    @Override
    public KeylessPolicy keylessPolicy() {
      return o.keylessPolicy();
    }
  }

  @Test
  void brokenCanariesAreCaught() {
    List<byte[]> keys = sample(3, 100_000);
    KeyRouter murmur2 = ROUTERS.get(0);
    KeyRouter jump = ROUTERS.get(1);
    // the real canary passes every check on these inputs
    monotone(REAL, keys.subList(0, 2000), 0.05, 0.25);
    ends(REAL, murmur2, jump, keys.subList(0, 2000), 24);
    fraction(REAL, keys, 0.05);
    independent(REAL, murmur2, keys, 20, 0.05);
    // each broken one fails the check made for it
    assertThatThrownBy(() -> independent(OWN_HASH, murmur2, keys, 20, 0.05))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> monotone(RESEEDED, keys.subList(0, 2000), 0.05, 0.25))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> fraction(COARSE, keys, 0.05)).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> ends(SWAPPED, murmur2, jump, keys.subList(0, 2000), 24))
        .isInstanceOf(AssertionError.class);
  }
}
