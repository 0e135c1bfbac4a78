package io.github.routingkit.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the whole suite with the GC profiler in one JVM session and writes a Markdown table of
 * ns/op, B/op and the ratio of each RoutingKit benchmark to the built-in it replaces, measured in
 * the same run. Usage: {@code java -cp benchmarks.jar io.github.routingkit.benchmarks.BenchmarkReport
 * [output.md] [include-regex]}.
 */
public final class BenchmarkReport {
  private BenchmarkReport() {}

  /** RoutingKit benchmark (Class.method) -> the built-in it is compared with (method in the same class). */
  static final Map<String, String> BASELINES = new LinkedHashMap<>();

  static {
    BASELINES.put("KeyedBytesBenchmark.routingKafkaMurmur2", "kafkaBuiltIn");
    BASELINES.put("KeyedBytesBenchmark.routingPulsarMurmur3", "kafkaBuiltIn");
    BASELINES.put("KeyedBytesBenchmark.routingPulsarJavaString", "kafkaBuiltIn");
    BASELINES.put("KeyedStringBenchmark.routingKafkaMurmur2", "kafkaGetBytesMurmur2");
    // each scheme there is measured as <scheme>Bytes and <scheme>String against Kafka's two paths
    for (String scheme : List.of("librdkafkaCrc32", "librdkafkaFnv1a", "saramaFnv1a",
        "saramaFnv1aReference", "pulsarGoJavaString", "xxh3Jump")) {
      BASELINES.put("OtherClientSchemesBenchmark." + scheme + "Bytes", "kafkaBuiltIn");
      BASELINES.put("OtherClientSchemesBenchmark." + scheme + "String", "kafkaGetBytesMurmur2");
    }
    BASELINES.put("KeyedStringBenchmark.encodedBytesFloorMurmur2", "kafkaGetBytesMurmur2");
    BASELINES.put("KeyedStringBenchmark.routingPulsarMurmur3", "pulsarMurmur3");
    BASELINES.put("KeyedStringBenchmark.routingPulsarJavaStringFresh", "pulsarJavaStringFresh");
    BASELINES.put("AdapterBenchmark.kafkaRoutingPartitioner", "kafkaBuiltIn");
    BASELINES.put("AdapterBenchmark.pulsarRoutingJavaString", "pulsarRoundRobinJavaString");
    BASELINES.put("AdapterBenchmark.pulsarRoutingMurmur3", "pulsarRoundRobinMurmur3");
    BASELINES.put("KeylessContentionBenchmark.routingRoundRobin", "naiveRoundRobin");
    BASELINES.put("KeylessContentionBenchmark.routingRandom", "naiveRoundRobin");
    BASELINES.put("PlacementBenchmark.jumpMurmur2", "moduloMurmur2");
    BASELINES.put("PlacementBenchmark.jumpXxh3", "moduloMurmur2");
    BASELINES.put("PlacementBenchmark.jumpBackMurmur2", "moduloMurmur2");
    BASELINES.put("PlacementBenchmark.jumpBackXxh3", "moduloMurmur2");
    BASELINES.put("StrategyBenchmark.segmentRouter", "plainMurmur2");
    BASELINES.put("StrategyBenchmark.hotKeyRouterConfigured", "plainMurmur2");
    BASELINES.put("StrategyBenchmark.hotKeyRouterDetecting", "plainMurmur2");
    BASELINES.put("StrategyBenchmark.hotKeyRouterDetectingSample8", "plainMurmur2");
    BASELINES.put("StrategyBenchmark.hotKeyRouterDetectingSample16", "plainMurmur2");
    BASELINES.put("StrategyBenchmark.versionedRouter", "plainMurmur2");
    BASELINES.put("TextKeyStrategyBenchmark.crc32Text", "murmur2Text");
    BASELINES.put("TextKeyStrategyBenchmark.xxh3JumpText", "murmur2Text");
    BASELINES.put("TextKeyStrategyBenchmark.segmentRouterText", "murmur2Text");
    BASELINES.put("HotKeyContentionBenchmark.hotKeyLeastLoaded", "plainMurmur2");
    BASELINES.put("HotKeyContentionBenchmark.hotKeyRoundRobin", "plainMurmur2");
    BASELINES.put("HotKeyContentionBenchmark.hotKeyValueHash", "plainMurmur2");
    BASELINES.put("MetricsOverheadBenchmark.kafkaMetricsOn", "kafkaMetricsOff");
    BASELINES.put("MetricsOverheadBenchmark.pulsarMetricsOn", "pulsarMetricsOff");
    BASELINES.put("MetricsOverheadBenchmark.coreMetricsOn", "coreMetricsOff");
    BASELINES.put("MetricsOverheadBenchmark.coreMetricsOnSampledHotKeys", "coreMetricsOff");
    BASELINES.put("MetricsContentionBenchmark.stripedTopicMetrics", "sharedAtomicLongArray");
    BASELINES.put("MetricsContentionBenchmark.longAdderPerPartition", "sharedAtomicLongArray");
  }

  public static void main(String[] args) throws RunnerException, IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/benchmarks.md");
    String include = args.length > 1 ? args[1] : "io.github.routingkit.benchmarks.*Benchmark";
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(include)
        .addProfiler(GCProfiler.class)
        .warmupIterations(2).warmupTime(TimeValue.seconds(1))
        // 5 short iterations rather than 3 long ones, same time: the ± (JMH's 99.9 % interval,
        // Student's t over the iterations) shrinks from t = 31.6 (2 d.f.) to t = 8.6 (4 d.f.)
        .measurementIterations(5).measurementTime(TimeValue.milliseconds(600))
        .forks(1);
    Collection<RunResult> results = new Runner(options.build()).run();
    Files.writeString(out, render(results), StandardCharsets.UTF_8);
    System.out.println("wrote " + out.toAbsolutePath());
  }

  /** One measured row: benchmark label, params, score and allocation. */
  private record Row(String bench, String method, String params, double ns, double err, double bytes) {}

  static String render(Collection<RunResult> results) {
    Map<String, Row> byKey = new TreeMap<>();
    List<Row> rows = new ArrayList<>();
    for (RunResult r : results) {
      String full = r.getParams().getBenchmark();
      String[] parts = full.split("\\.");
      String bench = parts[parts.length - 2];
      String method = parts[parts.length - 1];
      StringBuilder params = new StringBuilder();
      for (String key : r.getParams().getParamsKeys()) {
        params.append(params.length() == 0 ? "" : ", ").append(key).append('=')
            .append(r.getParams().getParam(key));
      }
      Result<?> primary = r.getPrimaryResult();
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      Row row = new Row(bench, method, params.toString(), primary.getScore(),
          primary.getScoreError(), alloc == null ? Double.NaN : alloc.getScore());
      rows.add(row);
      byKey.put(bench + "." + method + "|" + row.params, row);
    }
    StringBuilder md = new StringBuilder();
    md.append("# Benchmarks\n\n")
        .append("Generated by `routing-benchmarks/run-benchmarks.sh` (JMH ")
        .append(org.openjdk.jmh.util.Version.getPlainVersion())
        .append(", `-prof gc`, 1 fork, 2 × 1 s warm-up, 5 × 0.6 s measurement; ± is JMH's 99.9 % ")
        .append("confidence half-width over the 5 iterations). Every ratio compares ")
        .append("two benchmarks of the same run: RoutingKit time ÷ built-in time (below 1.00 = RoutingKit is faster).\n\n")
        .append("- Date: ").append(LocalDate.now(ZoneOffset.UTC)).append('\n')
        .append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ')
        .append(System.getProperty("java.runtime.version")).append('\n')
        .append("- Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
        .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch")).append("\n\n");
    String current = null;
    for (Row row : rows) {
      if (!row.bench.equals(current)) {
        current = row.bench;
        md.append("\n## ").append(current).append("\n\n")
            .append("| benchmark | params | ").append(row.bench.equals("AssignorBenchmark") ? "ms/op" : "ns/op")
            .append(" | ± | B/op | vs baseline |\n")
            .append("|---|---|---:|---:|---:|---|\n");
      }
      String baseline = BASELINES.get(row.bench + "." + row.method);
      String ratio = "";
      if (row.params.contains("assignor=routing-group")) {
        Row base = byKey.get(row.bench + "." + row.method + "|"
            + row.params.replace("assignor=routing-group", "assignor=uniform"));
        if (base != null) {
          ratio = String.format(Locale.ROOT, "%.2f× of `UniformAssignor`", row.ns / base.ns);
        }
      } else if (row.params.contains("assignor=uniform")) {
        ratio = "(baseline)";
      } else if (row.params.contains("assignor=routing")) {
        Row base = byKey.get(row.bench + "." + row.method + "|"
            + row.params.replace("assignor=routing", "assignor=cooperative-sticky"));
        if (base != null) {
          ratio = String.format(Locale.ROOT, "%.2f× of `CooperativeStickyAssignor`", row.ns / base.ns);
        }
      } else if (row.params.contains("assignor=cooperative-sticky")) {
        ratio = "(baseline)";
      } else if (baseline != null) {
        Row base = byKey.get(row.bench + "." + baseline + "|" + row.params);
        if (base != null) {
          ratio = String.format(Locale.ROOT, "%.2f× of `%s`", row.ns / base.ns, baseline);
        }
      } else if (BASELINES.containsValue(row.method)) {
        ratio = "(baseline)";
      }
      md.append(String.format(Locale.ROOT, "| `%s` | %s | %.1f | %.1f | %s | %s |\n",
          row.method, row.params.isEmpty() ? "–" : row.params, row.ns, row.err,
          Double.isNaN(row.bytes) ? "n/a" : String.format(Locale.ROOT, "%.0f", Math.max(0, row.bytes)),
          ratio));
    }
    return md.toString();
  }
}
