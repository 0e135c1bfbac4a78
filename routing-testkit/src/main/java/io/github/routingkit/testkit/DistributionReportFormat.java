package io.github.routingkit.testkit;

import io.github.routingkit.testkit.DistributionReport.KeyShare;
import io.github.routingkit.testkit.stats.LoadStatistics;

/**
 * Renders a {@link DistributionReport} as text, CSV and JSON, from its public accessors only: the
 * statistics live in the report, the layout here. The output is a pure function of the report
 * (same report, same bytes). Stateless and thread-safe.
 */
final class DistributionReportFormat {
  private DistributionReportFormat() {}

  /** The text form: {@link DistributionReport#toText(int)}, listing at most {@code keys} keys. */
  static String text(DistributionReport r, int keys) {
    StringBuilder sb = new StringBuilder();
    LoadStatistics s = r.statistics();
    sb.append("router            ").append(r.router()).append('\n');
    sb.append("partitions        ").append(r.partitions()).append('\n');
    sb.append("messages          ").append(Text.num(r.messages())).append('\n');
    sb.append("distinct keys     ").append(r.distinctKeysExact() ? "" : "~")
        .append(Text.num(r.distinctKeys())).append(r.distinctKeysExact() ? "" : " (estimated)")
        .append('\n');
    sb.append("effective keys    ").append(Text.num(Math.round(r.effectiveKeys()))).append('\n');
    sb.append("max/mean          ").append(Text.dec(s.maxOverMean(), 4))
        .append("  (partition ").append(s.hottestPartition()).append(": ")
        .append(Text.num(s.max())).append(" messages, mean ").append(Text.grouped(s.mean(), 1))
        .append(")\n");
    sb.append("chance (sample)   ").append(Text.dec(r.samplingP99(), 4))
        .append(" p99 for a perfect hash of ").append(Text.num(r.messages())).append(" distinct keys\n");
    sb.append("perfect hash      ").append(Text.dec(r.perfectHashExpected(), 4))
        .append(" expected, ").append(Text.dec(r.perfectHashP99(), 4)).append(" p99 for these keys\n");
    sb.append("hot-key floor     ").append(Text.dec(r.hotKeyFloor(), 4)).append('\n');
    sb.append("CV                ").append(Text.dec(s.coefficientOfVariation(), 4)).append('\n');
    sb.append("chi-square        ").append(Text.dec(s.chiSquare(), 2)).append(" (df ")
        .append(s.degreesOfFreedom()).append("), p-value ").append(pValueText(s.pValue()))
        .append('\n');
    sb.append("verdict           ").append(r.verdict()).append('\n');
    sb.append("                  ").append(r.advice()).append("\n\n");
    sb.append("partition   messages    share  x mean\n");
    double mean = s.mean();
    for (int p = 0; p < r.partitions(); p++) {
      long c = s.count(p);
      double ratio = mean == 0 ? 0 : c / mean;
      sb.append(String.format(java.util.Locale.ROOT, "%9d %10s %8s  %6.3f  %s%n", p, Text.num(c),
          Text.pct(r.messages() == 0 ? 0 : (double) c / r.messages()), ratio,
          "#".repeat((int) Math.round(Math.min(ratio, 4) * 10))));
    }
    if (!r.topKeys().isEmpty() && keys > 0) {
      sb.append("\nhottest keys").append(r.distinctKeysExact() ? "" : " (counts are lower bounds)")
          .append('\n');
      for (KeyShare k : r.topKeys().subList(0, Math.min(keys, r.topKeys().size()))) {
        sb.append(String.format(java.util.Locale.ROOT, "%10s %8s  partition %-5s %s%n",
            Text.num(k.count()), Text.pct(k.share()),
            k.partition() < 0 ? "?" : Integer.toString(k.partition()), Text.shortKey(k.key())));
      }
    }
    return sb.toString();
  }

  /** The CSV form: {@link DistributionReport#toCsv()}. */
  static String csv(DistributionReport r) {
    StringBuilder sb = new StringBuilder("partition,messages,share,ratio_to_mean\n");
    long messages = r.messages();
    for (int p = 0; p < r.partitions(); p++) {
      long c = r.statistics().count(p);
      sb.append(p).append(',').append(c).append(',')
          .append(messages == 0 ? 0.0 : (double) c / messages).append(',')
          .append(messages == 0 ? 0.0 : (double) c * r.partitions() / messages).append('\n');
    }
    return sb.toString();
  }

  /** The JSON form: {@link DistributionReport#toJson()}. */
  static String json(DistributionReport r) {
    LoadStatistics s = r.statistics();
    StringBuilder sb = new StringBuilder("{");
    sb.append("\"router\":").append(Text.jsonString(r.router()));
    sb.append(",\"partitions\":").append(r.partitions());
    sb.append(",\"messages\":").append(r.messages());
    sb.append(",\"distinctKeys\":").append(r.distinctKeys());
    sb.append(",\"distinctKeysExact\":").append(r.distinctKeysExact());
    sb.append(",\"effectiveKeys\":").append(Text.jsonNumber(r.effectiveKeys()));
    sb.append(",\"maxOverMean\":").append(Text.jsonNumber(s.maxOverMean()));
    sb.append(",\"hottestPartition\":").append(s.hottestPartition());
    sb.append(",\"mean\":").append(Text.jsonNumber(s.mean()));
    sb.append(",\"coefficientOfVariation\":").append(Text.jsonNumber(s.coefficientOfVariation()));
    sb.append(",\"chiSquare\":").append(Text.jsonNumber(s.chiSquare()));
    sb.append(",\"degreesOfFreedom\":").append(s.degreesOfFreedom());
    sb.append(",\"pValue\":").append(Text.jsonNumber(s.pValue()));
    sb.append(",\"perfectHashExpected\":").append(Text.jsonNumber(r.perfectHashExpected()));
    sb.append(",\"perfectHashP99\":").append(Text.jsonNumber(r.perfectHashP99()));
    sb.append(",\"samplingP99\":").append(Text.jsonNumber(r.samplingP99()));
    sb.append(",\"hotKeyFloor\":").append(Text.jsonNumber(r.hotKeyFloor()));
    sb.append(",\"verdict\":").append(Text.jsonString(r.verdict().name()));
    sb.append(",\"advice\":").append(Text.jsonString(r.advice()));
    sb.append(",\"counts\":[");
    for (int p = 0; p < r.partitions(); p++) {
      sb.append(p == 0 ? "" : ",").append(s.count(p));
    }
    sb.append("],\"topKeys\":[");
    for (int i = 0; i < r.topKeys().size(); i++) {
      KeyShare k = r.topKeys().get(i);
      sb.append(i == 0 ? "" : ",").append("{\"key\":").append(Text.jsonString(k.key()))
          .append(",\"count\":").append(k.count())
          .append(",\"share\":").append(Text.jsonNumber(k.share()))
          .append(",\"partition\":").append(k.partition())
          .append(",\"exact\":").append(k.exact()).append('}');
    }
    return sb.append("]}").toString();
  }
  private static String pValueText(double p) {
    return p < 1e-4 ? String.format(java.util.Locale.ROOT, "%.2e", p) : Text.dec(p, 4);
  }
}
