package io.github.routingkit.testkit;

import static io.github.routingkit.testkit.RolloutReport.percent;

import io.github.routingkit.testkit.RolloutReport.PartitionDelta;
import io.github.routingkit.testkit.RolloutReport.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The text and JSON forms of a {@link RolloutReport}. */
final class RolloutReportFormat {

  private RolloutReportFormat() {}

  /** See {@link RolloutReport#toText(int)}. */
  static String text(RolloutReport r, int top) {
    int partitions = r.partitions();
    long messages = r.messages();
    long distinctKeys = r.distinctKeys();
    List<Step> steps = r.steps();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "rollout on %d partitions, %s messages, %s keys%n",
        partitions, Text.num(messages), distinctKeys < 0 ? "n/a (past the exact limit)"
            : Text.num(distinctKeys)));
    sb.append("a key moves when it switches to the new router and its partition changes\n\n");
    sb.append(String.format(Locale.ROOT, "%-16s %9s %9s %9s %9s %9s %9s  %s%n", "step",
        "switched", "moved", "moved", "cum.", "cum.", "max/mean", ""));
    sb.append(String.format(Locale.ROOT, "%-16s %9s %9s %9s %9s %9s %9s%n", "", "keys",
        "keys", "traffic", "keys", "traffic", "after"));
    for (Step s : steps) {
      sb.append(String.format(Locale.ROOT, "%-16s %9s %9s %9s %9s %9s %9s%n",
          share(s.fromShare()) + " -> " + share(s.toShare()),
          percent(s.switchedKeys(), distinctKeys), percent(s.movedKeys(), distinctKeys),
          percent(s.movedMessages(), messages),
          percent(s.cumulativeMovedKeys(), distinctKeys),
          percent(s.cumulativeMovedMessages(), messages), Text.dec(s.maxOverMean(), 4)));
    }
    double mean = (double) messages / partitions;
    for (Step s : steps) {
      sb.append('\n').append("step ").append(share(s.fromShare())).append(" -> ")
          .append(share(s.toShare())).append(": ").append(Text.num(s.movedMessages()))
          .append(" messages move\n");
      List<PartitionDelta> gains = new ArrayList<>();
      List<PartitionDelta> losses = new ArrayList<>();
      for (PartitionDelta d : s.deltas()) {
        (d.delta() > 0 ? gains : losses).add(d);
      }
      appendDeltas(sb, "  gain", gains, top, mean);
      appendDeltas(sb, "  lose", losses, top, mean);
    }
    return sb.toString();
  }

  private static void appendDeltas(StringBuilder sb, String label, List<PartitionDelta> ds,
      int top, double mean) {
    if (ds.isEmpty() || top <= 0) {
      return;
    }
    sb.append(label);
    for (int i = 0; i < Math.min(top, ds.size()); i++) {
      PartitionDelta d = ds.get(i);
      sb.append(String.format(Locale.ROOT, "  p%d %s%s (%s%.1f%% of mean)", d.partition(),
          d.delta() > 0 ? "+" : "", Text.num(d.delta()), d.delta() > 0 ? "+" : "",
          mean == 0 ? 0 : 100 * d.delta() / mean));
    }
    if (ds.size() > top) {
      sb.append("  (").append(ds.size() - top).append(" more)");
    }
    sb.append('\n');
  }

  /** See {@link RolloutReport#toJson(int)}. */
  static String json(RolloutReport r, int top) {
    int partitions = r.partitions();
    long messages = r.messages();
    long distinctKeys = r.distinctKeys();
    List<Step> steps = r.steps();
    StringBuilder sb = new StringBuilder("{\"partitions\":").append(partitions)
        .append(",\"messages\":").append(messages).append(",\"distinctKeys\":")
        .append(distinctKeys < 0 ? "null" : Long.toString(distinctKeys)).append(",\"steps\":[");
    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      sb.append(i == 0 ? "" : ",").append("{\"fromShare\":").append(Text.jsonNumber(s.fromShare()))
          .append(",\"toShare\":").append(Text.jsonNumber(s.toShare()))
          .append(",\"switchedKeys\":").append(orNull(s.switchedKeys()))
          .append(",\"movedKeys\":").append(orNull(s.movedKeys()))
          .append(",\"movedKeyFraction\":").append(Text.jsonNumber(frac(s.movedKeys(), distinctKeys)))
          .append(",\"switchedMessages\":").append(s.switchedMessages())
          .append(",\"movedMessages\":").append(s.movedMessages())
          .append(",\"movedMessageFraction\":").append(Text.jsonNumber(frac(s.movedMessages(), messages)))
          .append(",\"cumulativeMovedKeys\":").append(orNull(s.cumulativeMovedKeys()))
          .append(",\"cumulativeMovedKeyFraction\":")
          .append(Text.jsonNumber(frac(s.cumulativeMovedKeys(), distinctKeys)))
          .append(",\"cumulativeMovedMessages\":").append(s.cumulativeMovedMessages())
          .append(",\"cumulativeMovedMessageFraction\":")
          .append(Text.jsonNumber(frac(s.cumulativeMovedMessages(), messages)))
          .append(",\"maxOverMean\":").append(Text.jsonNumber(s.maxOverMean()))
          .append(",\"gains\":");
      appendJsonDeltas(sb,
          s.deltas().stream().filter(d -> d.delta() > 0).collect(Collectors.toList()), top);
      sb.append(",\"losses\":");
      appendJsonDeltas(sb,
          s.deltas().stream().filter(d -> d.delta() < 0).collect(Collectors.toList()), top);
      sb.append('}');
    }
    return sb.append("]}").toString();
  }

  private static double frac(long part, long whole) {
    return part < 0 || whole <= 0 ? Double.NaN : (double) part / whole;
  }

  private static String share(double s) {
    return new java.math.BigDecimal(s * 100).round(new java.math.MathContext(6)).stripTrailingZeros()
        .toPlainString() + "%";
  }

  private static String orNull(long v) {
    return v < 0 ? "null" : Long.toString(v);
  }

  private static void appendJsonDeltas(StringBuilder sb, List<PartitionDelta> ds, int top) {
    sb.append('[');
    for (int i = 0; i < Math.min(top, ds.size()); i++) {
      PartitionDelta d = ds.get(i);
      sb.append(i == 0 ? "" : ",").append("{\"partition\":").append(d.partition())
          .append(",\"delta\":").append(d.delta()).append(",\"load\":").append(d.load()).append('}');
    }
    sb.append(']');
  }
}
