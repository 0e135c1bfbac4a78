package io.github.routingkit.benchmarks;

import io.github.routingkit.pulsar.ConsumerHandle;
import io.github.routingkit.pulsar.KeySharedPredictor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of {@link KeySharedPredictor}'s ownership state: building n consumers, rejecting the
 * auto-split consumer 65,537, and one join plus one leave on a subscription with {@code
 * connected} consumers reached after {@code history} earlier join/leave cycles. The join/leave
 * cost must not depend on {@code history}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class KeySharedPredictorBenchmark {

  private static List<String> names(int n) {
    List<String> names = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      names.add("consumer-" + i);
    }
    return names;
  }

  /** Building a predictor of {@code consumers} consumers from a list. */
  @State(Scope.Benchmark)
  public static class Build {
    @Param({"auto-split", "consistent-hashing"})
    String selector;

    @Param({"20000", "65536"})
    int consumers;

    List<String> names;
    List<String> tooMany;

    @Setup
    public void setUp() {
      names = names(consumers);
      tooMany = names(KeySharedPredictor.HASH_RANGE_SIZE + 1);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 2)
  @Measurement(iterations = 5)
  public KeySharedPredictor build(Build s) {
    return s.selector.equals("auto-split")
        ? KeySharedPredictor.autoSplit(s.names)
        : KeySharedPredictor.consistentHashing(s.names);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 2)
  @Measurement(iterations = 5)
  public Object autoSplitRejects65537(Build s) {
    try {
      return KeySharedPredictor.autoSplit(s.tooMany);
    } catch (IllegalArgumentException expected) {
      return expected;
    }
  }

  /** A subscription with {@code connected} consumers after {@code history} join/leave cycles. */
  @State(Scope.Benchmark)
  public static class Churn {
    @Param({"auto-split", "consistent-hashing", "sticky"})
    String selector;

    @Param({"2", "1000"})
    int connected;

    @Param({"0", "10000"})
    int history;

    KeySharedPredictor predictor;

    @Setup
    public void setUp() {
      predictor = switch (selector) {
        case "auto-split" -> KeySharedPredictor.autoSplit(names(connected));
        case "consistent-hashing" -> KeySharedPredictor.consistentHashing(names(connected));
        default -> {
          KeySharedPredictor p = KeySharedPredictor.sticky(java.util.Map.of());
          for (int i = 0; i < connected; i++) {
            p = p.join("consumer-" + i, List.of(org.apache.pulsar.client.api.Range.of(i * 60,
                i * 60 + 29)));
          }
          yield p;
        }
      };
      for (int i = 0; i < history; i++) {
        predictor = joinAndLeave(predictor);
      }
    }
  }

  static KeySharedPredictor joinAndLeave(KeySharedPredictor p) {
    KeySharedPredictor joined = p.selector() == KeySharedPredictor.Selector.STICKY
        ? p.join("newcomer", List.of(org.apache.pulsar.client.api.Range.of(65000, 65535)))
        : p.join("newcomer");
    ConsumerHandle newcomer = joined.lastJoined();
    return joined.leave(newcomer);
  }

  /** One join and one leave of a consumer of a shared name, on a subscription with history. */
  @Benchmark
  public KeySharedPredictor joinAndLeave(Churn s) {
    return joinAndLeave(s.predictor);
  }
}
