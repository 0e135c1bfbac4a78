package io.github.routingkit.benchmarks;

import io.github.routingkit.hash.HashScheme;

import java.nio.charset.StandardCharsets;
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
 * Pulsar's JavaStringHash of UTF-8 key bytes by script: the decoder takes 8 ASCII bytes per step
 * and backs off to one character at a time where multi-byte characters are dense, so this checks
 * that non-ASCII keys do not pay for the ASCII fast path. Not part of the report (run-benchmarks.sh
 * includes only {@code io.github.routingkit.benchmarks}); run it with
 * {@code java -jar routing-benchmarks/target/benchmarks.jar Utf8KeyBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 600, timeUnit = TimeUnit.MILLISECONDS)
@Fork(2)
@State(Scope.Thread)
public class Utf8KeyBenchmark {
  @Param({"ascii", "latin-accents", "cyrillic", "cjk"})
  String script;

  private final byte[][] keys = new byte[64][];
  private int next;

  @Setup
  public void setUp() {
    String base = switch (script) {
      case "ascii" -> "Saint-Petersburg-street-";
      case "latin-accents" -> "Zürich-Straße-Genève-";
      case "cyrillic" -> "Санкт-Петербург-улица-";
      default -> "東京都千代田区丸の内一丁目";
    };
    for (int i = 0; i < keys.length; i++) {
      keys[i] = (base + i).getBytes(StandardCharsets.UTF_8);
    }
  }

  @Benchmark
  public int pulsarJavaStringOfUtf8() {
    return HashScheme.PULSAR_JAVA_STRING.hash(keys[next++ & (keys.length - 1)]);
  }
}
