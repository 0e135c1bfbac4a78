package io.github.routingkit.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.routingkit.KeyFormat;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.stats.SkewVerdict;
import io.github.routingkit.testkit.DistributionReport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The diagnosis of a live topic: the admin API's per-partition sizes, a sample of its records
 * with the partition each was read from ({@link DistributionReport#observedBuilder}: the same
 * statistics and verdict as for a key file, on observed placement), and the two signals that tell
 * a key problem from a partitioner problem:
 *
 * <ul>
 *   <li>the share of the {@value #TOP} hottest keys: above {@value #KEY_CONCENTRATION} of the keyed
 *       records on a skewed topic, the keys are the problem ({@link SkewVerdict#FIX_KEY_DESIGN}: finer
 *       or salted keys, or a hot-key strategy);
 *   <li>the report's own verdict, which says {@link SkewVerdict#SUSPECT_ROUTER} when the keys would
 *       spread well (many effective keys, no dominant one) but the partitions do not; the share of
 *       records that sit where a given router ({@code --scheme}/{@code --spec}, by default the
 *       client's default) would put them tells whether the producers route as that router does.
 * </ul>
 *
 * Per-partition sizes whose max/min is above {@value #SIZE_SKEW} are called skewed, as operators
 * read them. Memory: the report's bounded key tally (see {@code --exact-keys}), the
 * {@value DistributionReport.Builder#OBSERVED_TRACKED} most recent keys' partitions, and a few
 * numbers per partition; the sample itself is not kept.
 */
final class LiveReport implements LiveTopic.RecordSink {
  /** max/min of per-partition sizes above which a topic is called skewed. */
  static final double SIZE_SKEW = 3.0;
  /** How many of the hottest keys the key-concentration test adds up. */
  static final int TOP = 10;
  /** The hottest keys' share above which the keys, not the partitioner, concentrate the load. */
  static final double KEY_CONCENTRATION = 0.5;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LiveTopic topic;
  private final KeyRouter router;
  private final String routerName;
  private final int n;
  /** How many of the hottest keys the text lists ({@code --top}). */
  private final int top;
  private final DistributionReport.Builder builder;
  private final long[] sampled;
  private final long[] keyless;
  private final long[] sampledBytes;
  private long keyed;
  private long routerMatches;
  private LiveTopic.ReadResult read;
  private long millis;
  private DistributionReport report;
  /** Keys with a schema-registry header, their schema ids, values on several partitions. */
  private SchemaIdScan schemaIds = new SchemaIdScan(KeyFormat.RAW);
  /** The router's key format: on Pulsar it decides whether a byte key is routed as bytes. */
  private KeyFormat keyFormat = KeyFormat.RAW;

  LiveReport(LiveTopic topic, KeyRouter router, String routerName, int top, int exactKeys) {
    this.topic = topic;
    this.top = top;
    this.router = router;
    this.routerName = routerName;
    this.n = topic.partitions();
    this.builder = DistributionReport.observedBuilder("observed: " + topic.describe(), n)
        .topK(Math.max(top, TOP)).exactKeyLimit(exactKeys);
    this.sampled = new long[n];
    this.keyless = new long[n];
    this.sampledBytes = new long[n];
  }

  @Override
  public void accept(int partition, String key, byte[] keyBytes, long bytes) {
    sampled[partition]++;
    sampledBytes[partition] += bytes;
    if (key == null) {
      keyless[partition]++;
      return;
    }
    keyed++;
    builder.add(key, partition, 1);
    schemaIds.accept(keyBytes != null ? keyBytes : key.getBytes(StandardCharsets.UTF_8),
        partition);
    if (routedPartition(key, keyBytes) == partition) {
      routerMatches++;
    }
  }

  /**
   * Where the router puts a key, read as the producers' partitioners read it: its bytes where they
   * hash bytes (Kafka's serialized key; on Pulsar a key set as bytes when a key format is set, as
   * {@code RoutingMessageRouter} routes it), else its text. The key format's header is skipped by
   * the router itself, on the bytes.
   */
  int routedPartition(String key, byte[] keyBytes) {
    return keyBytes != null && (topic.routesKeyBytes() || keyFormat.hasHeader())
        ? router.partition(keyBytes, n) : router.partition(key, n);
  }

  /**
   * The key format of the router ({@code --key-format} or the spec's); reads schema-registry
   * headers with it (Confluent's layout for raw). Call before reading.
   */
  void keyFormat(KeyFormat format) {
    keyFormat = format;
    schemaIds = new SchemaIdScan(format);
  }

  /** Records what the read did and builds the statistics; call once, after the read. */
  void finish(LiveTopic.ReadResult result, long elapsedMillis) {
    this.read = result;
    this.millis = elapsedMillis;
    if (result.records() == 0) {
      throw new KeyInput.InputException(topic.describe() + " holds no records in the window ("
          + topic.windowText() + ")" + (topic.window() == LiveTopic.Window.FROM_BEGINNING ? ""
              : "; try --from-beginning or a longer --since"));
    }
    if (keyed == 0) {
      throw new KeyInput.InputException(topic.describe() + ": all " + result.records()
          + " sampled records have no key, there is no key routing to analyze");
    }
    report = builder.build();
  }

  DistributionReport report() {
    return report;
  }

  /** The sum of the {@value #TOP} hottest keys' shares of the keyed records. */
  double topShare() {
    double s = 0;
    List<DistributionReport.KeyShare> keys = report.topKeys();
    for (int i = 0; i < Math.min(TOP, keys.size()); i++) {
      s += keys.get(i).share();
    }
    return s;
  }

  /** Share of keyed records on the partition {@code router} gives their key. */
  double routerMatch() {
    return keyed == 0 ? 0 : (double) routerMatches / keyed;
  }

  /** max/min of the admin API's record counts (the window's on Kafka); NaN if unknown. */
  double recordSkew() {
    return skew(true);
  }

  /** max/min of the admin API's byte sizes; NaN if unknown. */
  double byteSkew() {
    return skew(false);
  }

  private double skew(boolean records) {
    long max = Long.MIN_VALUE;
    long min = Long.MAX_VALUE;
    for (LiveTopic.PartitionSize s : topic.sizes()) {
      long v = records ? (s.windowRecords() >= 0 ? s.windowRecords() : s.records()) : s.bytes();
      if (v < 0) {
        return Double.NaN;
      }
      max = Math.max(max, v);
      min = Math.min(min, v);
    }
    if (max <= 0) {
      return Double.NaN;
    }
    return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
  }

  /** Whether the partitions are uneven: sizes above {@value #SIZE_SKEW} or a skew verdict. */
  boolean skewed() {
    SkewVerdict v = report.verdict();
    return recordSkew() > SIZE_SKEW || byteSkew() > SIZE_SKEW || v == SkewVerdict.KEEP_HEADROOM
        || v == SkewVerdict.FIX_KEY_DESIGN || v == SkewVerdict.SUSPECT_ROUTER;
  }

  /**
   * The verdict of the live topic: {@link SkewVerdict#FIX_KEY_DESIGN} when the partitions are uneven
   * and the {@value #TOP} hottest keys carry more than {@value #KEY_CONCENTRATION} of the keyed
   * records; else the sample's own verdict.
   */
  SkewVerdict verdict() {
    return skewed() && topShare() > KEY_CONCENTRATION ? SkewVerdict.FIX_KEY_DESIGN : report.verdict();
  }

  /** The verdict in words, naming the kind of problem. */
  String diagnosis() {
    SkewVerdict v = verdict();
    String top = pct(topShare());
    switch (v) {
      case FIX_KEY_DESIGN:
        return topShare() > KEY_CONCENTRATION
            ? "a key-distribution problem: the " + TOP + " hottest keys carry " + top + " of the"
                + " keyed records (more than half). Fix the keys (finer or salted keys) or use a"
                + " hot-key strategy; a different partitioner cannot spread one key."
            : "a key-distribution problem: the keys themselves are uneven (" + report.advice() + ")";
      case SUSPECT_ROUTER:
        return "a partitioner problem: the keys spread well (" + num(Math.round(
            report.effectiveKeys())) + " effective keys, the " + TOP + " hottest carry " + top
            + ") but the partitions do not (max/mean " + dec(report.maxOverMean(), 3) + "); "
            + pct(routerMatch()) + " of the keyed records sit where " + routerName
            + " puts their key. Check the producers' partitioner (partitioner.class,"
            + " messageRouter, a routing spec) and partition-count changes.";
      case KEEP_HEADROOM:
        return "uneven but not broken: " + report.advice();
      default:
        String sizes = recordSkew() > SIZE_SKEW || byteSkew() > SIZE_SKEW
            ? " But the admin API's partition sizes differ by more than " + dec(SIZE_SKEW, 0)
                + "x while the sample does not: compare a recent window (--since), the"
                + " difference may be old data (retention, compaction, an earlier producer)."
            : "";
        return "balanced: " + report.advice() + sizes;
    }
  }

  String toText() {
    StringBuilder sb = new StringBuilder();
    long keylessTotal = sum(keyless);
    sb.append("topic             ").append(topic.describe()).append(" (").append(n)
        .append(n == 1 ? " partition)" : " partitions)").append('\n');
    sb.append("window            ").append(topic.windowText()).append('\n');
    sb.append("sampled           ").append(num(read.records())).append(" records in ")
        .append(dec(millis / 1000.0, 1)).append(" s: ").append(num(keyed)).append(" keyed, ")
        .append(num(keylessTotal)).append(" keyless, ").append(num(sum(sampledBytes)))
        .append(" bytes").append('\n');
    if (read.capped() > 0) {
      sb.append("                  ").append(read.capped()).append(" partition(s) reached their"
          + " share of --sample before their end").append('\n');
    }
    if (!read.stalled().isEmpty()) {
      sb.append("                  partitions ").append(read.stalled())
          .append(" returned nothing for a whole --timeout before their end: left early\n");
    }
    sb.append("partition sizes   ").append(skewText(recordSkew(), "records")).append(", ")
        .append(skewText(byteSkew(), "bytes")).append('\n');
    sb.append("top ").append(TOP).append(" keys       ").append(pct(topShare()))
        .append(" of the keyed records").append(topShare() > KEY_CONCENTRATION
            ? " (more than half: the keys concentrate the load)" : "").append('\n');
    sb.append("router check      ").append(pct(routerMatch())).append(" of the keyed records"
        + " sit where ").append(routerName).append(" puts their key\n");
    sb.append("diagnosis         ").append(verdict()).append(": ").append(diagnosis()).append('\n');
    for (String note : topic.notes()) {
      sb.append("note              ").append(note).append('\n');
    }
    sb.append(schemaIds.toText());
    sb.append('\n').append(report.toText(top));
    sb.append("\npartition sizes (admin API) and sample\n");
    sb.append("partition    records      bytes    backlog    rate-in    sampled    keyless\n");
    for (LiveTopic.PartitionSize s : topic.sizes()) {
      long records = s.windowRecords() >= 0 ? s.windowRecords() : s.records();
      sb.append(String.format(Locale.ROOT, "%9d %10s %10s %10s %10s %10s %10s%n", s.partition(),
          orDash(records), orDash(s.bytes()), orDash(s.backlog()),
          Double.isNaN(s.rateIn()) ? "-" : dec(s.rateIn(), 1), num(sampled[s.partition()]),
          num(keyless[s.partition()])));
    }
    return sb.toString();
  }

  String toCsv() {
    StringBuilder sb = new StringBuilder("partition,records,window_records,bytes,backlog,rate_in,"
        + "sampled,sampled_keyless,sampled_bytes\n");
    for (LiveTopic.PartitionSize s : topic.sizes()) {
      int p = s.partition();
      sb.append(p).append(',').append(s.records()).append(',').append(s.windowRecords())
          .append(',').append(s.bytes()).append(',').append(s.backlog()).append(',')
          .append(Double.isNaN(s.rateIn()) ? "" : Double.toString(s.rateIn())).append(',')
          .append(sampled[p]).append(',').append(keyless[p]).append(',').append(sampledBytes[p])
          .append('\n');
    }
    return sb.toString();
  }

  String toJson() {
    ObjectNode o = JSON.createObjectNode();
    o.put("topic", topic.describe());
    o.put("window", topic.windowText());
    o.put("partitions", n);
    o.put("sampled", read.records());
    o.put("keyed", keyed);
    o.put("keyless", sum(keyless));
    o.put("sampledBytes", sum(sampledBytes));
    o.put("recordSkew", finite(recordSkew()));
    o.put("byteSkew", finite(byteSkew()));
    o.put("topShare", topShare());
    o.put("routerMatch", routerMatch());
    o.put("router", routerName);
    o.put("verdict", verdict().name());
    o.put("diagnosis", diagnosis());
    ArrayNode parts = o.putArray("partitionSizes");
    for (LiveTopic.PartitionSize s : topic.sizes()) {
      ObjectNode p = parts.addObject();
      p.put("partition", s.partition());
      p.put("records", s.records());
      p.put("windowRecords", s.windowRecords());
      p.put("bytes", s.bytes());
      p.put("backlog", s.backlog());
      if (!Double.isNaN(s.rateIn())) {
        p.put("rateIn", s.rateIn());
      }
      p.put("sampled", sampled[s.partition()]);
      p.put("sampledKeyless", keyless[s.partition()]);
      p.put("sampledBytes", sampledBytes[s.partition()]);
    }
    o.putArray("notes").addAll(topic.notes().stream()
        .map(JSON.getNodeFactory()::textNode).toList());
    if (schemaIds.found()) {
      o.set("schemaRegistry", JSON.valueToTree(schemaIds.toMap()));
    }
    try {
      o.set("sample", JSON.readTree(report.toJson()));
      return JSON.writeValueAsString(o);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Infinity (an empty partition) as the largest double: JSON has no infinity. */
  private static Double finite(double v) {
    return Double.isNaN(v) ? null : Double.isInfinite(v) ? Double.MAX_VALUE : v;
  }

  private static String skewText(double skew, String what) {
    if (Double.isNaN(skew)) {
      return what + " unknown";
    }
    String r = Double.isInfinite(skew) ? "infinite (an empty partition)" : dec(skew, 2);
    return what + " max/min " + r + (skew > SIZE_SKEW ? " (above " + dec(SIZE_SKEW, 0)
        + ": skewed)" : "");
  }

  private static long sum(long[] a) {
    long s = 0;
    for (long v : a) {
      s += v;
    }
    return s;
  }

  private static String orDash(long v) {
    return v < 0 ? "-" : num(v);
  }

  private static String num(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }

  private static String dec(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  private static String pct(double f) {
    return String.format(Locale.ROOT, "%.1f%%", f * 100);
  }
}
