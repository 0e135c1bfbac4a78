package io.github.routingkit.cli;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.testkit.DistributionReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code routing plan}: partitions = ceil(max(write ratio, consume ratio) × headroom × skew), where
 * skew is the sample's max/mean at that partition count (1.0 without a sample, or when the
 * sample's unevenness is within what a perfect hash shows on that many keys); iterated until the
 * partition count is stable, because skew changes with the count.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = "How many partitions: max(peak write / partition write, peak consume /"
        + " partition consume) x headroom, adjusted by a key sample's skew, with the reasoning.")
final class PlanCommand implements Callable<Integer> {
  private static final int MAX_PARTITIONS = 100_000;

  /**
   * How many counts below the first one the jumps found enough plan measures in addition, from
   * the smallest up, looking for a smaller count that is enough (each is one pass over --keys).
   */
  static final int MAX_SCANNED = 32;

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--peak-write", paramLabel = "MSG/S", required = true,
      description = "Peak produce rate of the topic, messages per second.")
  double peakWrite;

  @Option(names = "--partition-write", paramLabel = "MSG/S", required = true,
      description = "Sustained produce rate one partition handles, messages per second.")
  double partitionWrite;

  @Option(names = "--peak-consume", paramLabel = "MSG/S",
      description = "Peak consume rate (all consumer groups' slowest), messages per second.")
  Double peakConsume;

  @Option(names = "--partition-consume", paramLabel = "MSG/S",
      description = "Rate one consumer processes from one partition, messages per second.")
  Double partitionConsume;

  @Option(names = "--headroom", paramLabel = "FACTOR", defaultValue = "1.3",
      description = "Capacity factor over the peak (default: ${DEFAULT-VALUE}).")
  double headroom;

  @Option(names = "--keys", paramLabel = "FILE",
      description = "A key sample to measure skew on (read as analyze reads --keys: a 0x<hex>"
          + " key is routed by its bytes).")
  Path keys;

  @Mixin
  RouterOptions routerOptions;

  @Option(names = "--column", paramLabel = "N", split = ",", description = "As in analyze.")
  List<Integer> columns;

  @Option(names = "--tsv-field", paramLabel = "NAME", split = ",", description = "As in analyze.")
  List<String> fields;

  @Option(names = "--quiet", description = "No progress lines on stderr.")
  boolean quiet;

  @Option(names = "--message-bytes", paramLabel = "BYTES",
      description = "Average message size: adds producer buffer sizing (Pulsar maxPendingMessages,"
          + " memoryLimitBytes, blockIfQueueFull, sendTimeout; Kafka buffer.memory, max.block.ms,"
          + " delivery.timeout.ms), each with its formula.")
  Double messageBytes;

  @Option(names = "--window", paramLabel = "SECONDS", defaultValue = "5",
      description = "How long a partition may not take writes: a Pulsar bundle move or reconnect,"
          + " a Kafka leader change (default: ${DEFAULT-VALUE}).")
  double window;

  @Option(names = "--producers", paramLabel = "N", defaultValue = "1",
      description = "Producer instances sharing the peak write rate (default: ${DEFAULT-VALUE}).")
  int producers;

  @Option(names = "--flavor", paramLabel = "FLAVOR", defaultValue = "both",
      description = "Buffer advice for kafka, pulsar or both (default: ${DEFAULT-VALUE}).")
  String flavor;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    positive(cmd, "--peak-write", peakWrite);
    positive(cmd, "--partition-write", partitionWrite);
    if ((peakConsume == null) != (partitionConsume == null)) {
      throw new ParameterException(cmd, "--peak-consume and --partition-consume go together");
    }
    if (peakConsume != null) {
      positive(cmd, "--peak-consume", peakConsume);
      positive(cmd, "--partition-consume", partitionConsume);
    }
    if (!(headroom >= 1) || Double.isInfinite(headroom)) {
      throw new ParameterException(cmd, "--headroom was " + headroom + ", must be >= 1");
    }
    if (messageBytes != null) {
      positive(cmd, "--message-bytes", messageBytes);
    }
    positive(cmd, "--window", window);
    if (producers < 1) {
      throw new ParameterException(cmd, "--producers was " + producers + ", must be at least 1");
    }
    if (!flavor.equals("kafka") && !flavor.equals("pulsar") && !flavor.equals("both")) {
      throw new ParameterException(cmd, "--flavor was '" + flavor + "', must be kafka, pulsar or"
          + " both");
    }
    KeyInput input = null;
    if (keys != null) {
      input = new KeyInput();
      input.file = keys;
      input.columns = columns;
      input.fields = fields;
      input.join = "/";
      input.quiet = quiet;
      input.validate(cmd);
      if (input.isStdin()) {
        throw new ParameterException(cmd, "plan reads --keys once per candidate partition count,"
            + " so it needs a file, not standard input");
      }
    } else if (columns != null || fields != null) {
      throw new ParameterException(cmd, "--column/--tsv-field need --keys");
    }
    // the sample's lines by the rule of every key file: a 0x<hex> line is routed by its bytes
    KeyRouter router = new BinaryKeyLines(routerOptions.router(cmd));
    PrintWriter out = cmd.getOut();
    double writeRatio = peakWrite / partitionWrite;
    double need = Math.max(writeRatio, peakConsume == null ? 0 : peakConsume / partitionConsume)
        * headroom;
    if (!(need <= MAX_PARTITIONS)) {
      // capping the recommendation at MAX_PARTITIONS would be a wrong answer: refuse instead
      throw new ParameterException(cmd, String.format(Locale.ROOT, "the rates need %.4g partitions"
          + " with headroom, more than the %,d plan recommends; check the units of the peak and"
          + " per-partition rates", need, MAX_PARTITIONS));
    }
    out.printf(Locale.ROOT, "write     %,.0f msg/s peak / %,.0f msg/s per partition = %.2f partitions%n",
        peakWrite, partitionWrite, writeRatio);
    double ratio = writeRatio;
    if (peakConsume != null) {
      double consumeRatio = peakConsume / partitionConsume;
      out.printf(Locale.ROOT, "consume   %,.0f msg/s peak / %,.0f msg/s per partition = %.2f partitions%n",
          peakConsume, partitionConsume, consumeRatio);
      ratio = Math.max(writeRatio, consumeRatio);
      out.printf(Locale.ROOT, "need      max(%.2f, %.2f) = %.2f partitions at perfect balance%n",
          writeRatio, consumeRatio, ratio);
    }
    int n = partitionsFor(ratio * headroom);
    out.printf(Locale.ROOT, "headroom  %.2f x %.2f = %.2f -> %d partitions%n", ratio, headroom,
        ratio * headroom, n);
    boolean hotKeyBlocks = false;
    boolean capped = false;
    double skewAtN = 1.0;
    int first = n;
    BitSet tried = new BitSet();
    if (input != null) {
      for (int round = 0; round < 20; round++) {
        DistributionReport report = measure(input, router, n, cmd);
        double skew = skewLine(out, report, n);
        tried.set(n);
        skewAtN = skew;
        if (round == 0 && !report.topKeys().isEmpty()) {
          DistributionReport.KeyShare hot = report.topKeys().get(0);
          // each direction against its own limit: the key's write rate against what a partition
          // takes in, its consume rate against what a partition's consumer keeps up with
          String blocked = hotKeyBlocked(out, hot, "write", peakWrite, partitionWrite);
          if (blocked == null && peakConsume != null) {
            blocked = hotKeyBlocked(out, hot, "consume", peakConsume, partitionConsume);
          }
          if (blocked != null) {
            hotKeyBlocks = true;
            break;
          }
        }
        int needed = partitionsFor(ratio * headroom * skew);
        if (needed <= n) {
          break;
        }
        if (ratio * headroom * skew > MAX_PARTITIONS) {
          capped = true;
        }
        out.printf(Locale.ROOT, "adjust    %.2f x %.2f x %.4f = %.2f -> %d partitions%n", ratio,
            headroom, skew, ratio * headroom * skew, needed);
        n = needed;
      }
      if (!hotKeyBlocks && !capped && n > first + 1 && tried.nextClearBit(first + 1) < n) {
        // skew is not monotonic in the count: a count the jumps passed over may be enough too
        out.printf(Locale.ROOT, "scan      the counts between %d and %d the adjustments passed"
            + " over, smallest first (skew is not monotonic in the count)%n", first, n);
        int checked = 0;
        int found = -1;
        int m = first + 1;
        for (; m < n && checked < MAX_SCANNED && found < 0; m++) {
          if (tried.get(m)) {
            continue;
          }
          checked++;
          double skew = skewLine(out, measure(input, router, m, cmd), m);
          if (partitionsFor(ratio * headroom * skew) <= m) {
            out.printf(Locale.ROOT, "enough    %.2f x %.2f x %.4f = %.2f <= %d%n", ratio,
                headroom, skew, ratio * headroom * skew, m);
            found = m;
            skewAtN = skew;
          }
        }
        if (found > 0) {
          n = found;
        } else if (checked > 0) {
          out.printf(Locale.ROOT, "checked   %s between %d and %d: none is enough%n",
              m >= n ? "every count" : "the first " + MAX_SCANNED + " counts", first, n);
        }
      }
    }
    out.printf(Locale.ROOT, "%nrecommendation: %d partitions%s%s%n", n,
        hotKeyBlocks ? " (not enough while the hot key stays on one partition)" : "",
        capped ? String.format(Locale.ROOT, " (capped: the skew asks for more than %,d)",
            MAX_PARTITIONS) : "");
    if (messageBytes != null) {
      out.print(ProducerBufferPlan.toText(ProducerBufferPlan.compute(peakWrite, partitionWrite, n,
          skewAtN, producers, messageBytes, window, flavor), window, producers));
    }
    out.flush();
    if (hotKeyBlocks) {
      // a CI gate on plan must see that no partition count is enough: exit 1, not 0
      cmd.getErr().println("routing: check failed: the hot key alone needs more than one"
          + " partition can take; no partition count fixes this");
      cmd.getErr().flush();
      return RoutingCli.EXIT_CHECK_FAILED;
    }
    return 0;
  }

  /**
   * Whether the hot key alone needs more than one partition takes in one direction: its share of
   * the peak, with headroom, against that direction's per-partition limit. Prints the finding and
   * returns the direction if so, else null.
   */
  private String hotKeyBlocked(PrintWriter out, DistributionReport.KeyShare hot, String direction,
      double peak, double perPartition) {
    double hotRate = hot.share() * peak;
    if (hotRate * headroom <= perPartition) {
      return null;
    }
    out.printf(Locale.ROOT, "hot key   '%s' carries %.2f%% of the messages = %,.0f msg/s %s at"
        + " peak, more than one partition handles with headroom (%,.0f msg/s): no partition"
        + " count fixes this, fix the key design (salt or split the key, or a hot-key"
        + " strategy)%n", hot.key(), hot.share() * 100, hotRate, direction,
        perPartition / headroom);
    return direction;
  }

  /** Prints the sample's skew at {@code n} partitions; returns it (1.0 when within chance). */
  private static double skewLine(PrintWriter out, DistributionReport report, int n) {
    double skew = report.verdict() == io.github.routingkit.stats.SkewVerdict.WITHIN_PERFECT_HASH_BOUND
        ? 1.0 : report.maxOverMean();
    out.printf(Locale.ROOT, "skew      at %d partitions the sample (%,d messages, %,d keys) has"
        + " max/mean %.4f (chance explains up to %.4f): %s%n", n, report.messages(),
        report.distinctKeys(), report.maxOverMean(), report.samplingP99(),
        skew == 1.0 ? "within chance, no adjustment" : "the hottest partition needs "
            + String.format(Locale.ROOT, "%.4f", skew) + " x the mean");
    return skew;
  }

  private DistributionReport measure(KeyInput input, KeyRouter router, int n, CommandLine cmd) {
    DistributionReport.Builder b = DistributionReport.builder(router, n).topK(1);
    input.forEachKey(b::add, cmd.getErr());
    return b.build();
  }

  private static int partitionsFor(double x) {
    return (int) Math.min(MAX_PARTITIONS, Math.max(1, Math.ceil(x - 1e-9)));
  }

  private static void positive(CommandLine cmd, String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new ParameterException(cmd, name + " was " + v + ", must be a positive number");
    }
  }
}
