package io.github.routingkit.testkit;

import io.github.routingkit.stats.SkewVerdict;

/**
 * The advice of a {@link DistributionReport}: its {@link SkewVerdict} explained in one or two
 * sentences, with the numbers behind it. Stateless.
 */
final class SkewAdvice {
  private SkewAdvice() {}

  /** Returns the advice for a report whose statistics and verdict are already computed. */
  static String of(DistributionReport report) {
    double r = report.maxOverMean();
    String cause = r <= report.perfectHashP99()
        ? " A perfect hash would do no better on these keys (their weights make them "
            + Text.num(Math.round(report.effectiveKeys())) + " effective keys: expected "
            + Text.dec(report.perfectHashExpected(), 4) + ", p99 "
            + Text.dec(report.perfectHashP99(), 4) + "), so the keys, not the hash, cause it."
        : " A perfect hash would do better on these keys (p99 "
            + Text.dec(report.perfectHashP99(), 4) + " for "
            + Text.num(Math.round(report.effectiveKeys()))
            + " effective keys): suspect the hash or the placement too.";
    String hot = "";
    if (!report.topKeys().isEmpty() && report.hotKeyFloor() > 1.1) {
      DistributionReport.KeyShare k = report.topKeys().get(0);
      hot = " The hottest key " + Text.shortKey(k.key()) + " alone carries " + Text.pct(k.share())
          + " of the messages, so no router that keeps a key on one partition gets below "
          + Text.dec(report.hotKeyFloor(), 2) + " at " + report.partitions()
          + " partitions, and more partitions make that floor higher.";
    }
    switch (report.verdict()) {
      case WITHIN_PERFECT_HASH_BOUND:
        return "max/mean " + Text.dec(r, 4) + " is within what chance explains for "
            + Text.num(report.messages()) + " messages (a perfect hash reaches up to "
            + Text.dec(report.samplingP99(), 4) + " at p99). No evidence of skew"
            + (report.samplingP99() > 1.1
                ? "; the sample is too small to show less, use more keys." : ".");
      case BALANCED:
        return "max/mean " + Text.dec(r, 4) + " is above what chance explains for "
            + Text.num(report.messages()) + " messages (p99 " + Text.dec(report.samplingP99(), 4)
            + ") but below 1.1: balanced enough, nothing to do.";
      case SUSPECT_ROUTER:
        return "max/mean " + Text.dec(r, 4) + " is far above what these keys allow: as "
            + Text.num(Math.round(report.effectiveKeys())) + " effective keys on "
            + report.partitions() + " partitions a perfect hash would reach at most "
            + Text.dec(report.perfectHashP99(), 4)
            + " (p99), and the hottest key alone explains at most "
            + Text.dec(report.hotKeyFloor(), 4)
            + ". The keys are fine: suspect the router (its scheme and placement, a segment"
            + " layout, a version generation with fewer partitions, a custom partitioner), not"
            + " the key design. Partition " + report.statistics().hottestPartition() + " carries "
            + Text.pct((double) report.statistics().max() / Math.max(1, report.messages()))
            + " of the messages.";
      case KEEP_HEADROOM:
        return "max/mean " + Text.dec(r, 4) + " is between 1.1 and 1.5: keep ~30 % headroom on the"
            + " hottest partition" + (r > 1.3 ? " (it exceeds 1.3: plan capacity for "
            + Text.dec(r, 2) + " x the mean load)" : "") + "." + cause + hot;
      default:
        return "max/mean " + Text.dec(r, 4) + " is above 1.5: fix the key design (finer or salted"
            + " keys, a hot-key strategy) before adding partitions." + cause + hot;
    }
  }
}
