package io.github.routingkit.metrics;

import io.github.routingkit.assignment.GroupShape;
import io.github.routingkit.stats.SkewVerdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The catalogue of every metric the adapters publish: its name, kind, scope, unit, the question it
 * answers and a Prometheus query for a Grafana panel. It is the one source of the names each
 * ecosystem sees ({@link #kafkaName()}, {@link #otelName()}, {@link #prometheusName()}) and of the
 * table in {@code docs/metrics.md}, which a test compares with {@link #markdownTable()}.
 *
 * <p>Immutable and thread-safe.
 */
public enum RoutingMetric {
  /** Keyed records routed to a partition since the producer started. */
  RECORDS_KEYED("records.keyed", Kind.COUNTER, Scope.PARTITION, "{record}",
      "How many keyed records went to each partition (a rate per partition)?",
      "sum by (topic, partition) (rate(routingkit_records_keyed_total[5m]))"),
  /** Keyless records placed on a partition since the producer started. */
  RECORDS_KEYLESS("records.keyless", Kind.COUNTER, Scope.PARTITION, "{record}",
      "How many keyless records went to each partition?",
      "sum by (topic, partition) (rate(routingkit_records_keyless_total[5m]))"),
  /** max/mean of the records per partition in the sliding window. */
  SKEW_MAX_OVER_MEAN("skew.max.over.mean", Kind.GAUGE, Scope.TOPIC, "1",
      "How uneven is the load on the topic's partitions right now (1 = perfectly even)?",
      "max by (topic) (routingkit_skew_max_over_mean)"),
  /** Records the window holds. */
  SKEW_WINDOW_RECORDS("skew.window.records", Kind.GAUGE, Scope.TOPIC, "{record}",
      "How many records is the skew measured on (few records: a high max/mean means little)?",
      "routingkit_skew_window_records"),
  /** The verdict on the window's spread, one series per verdict (1 for the current one). */
  SKEW_VERDICT("skew.verdict", Kind.STATE_SET, Scope.TOPIC, "1",
      "What should be done about the skew (the test kit's and `routing analyze`'s verdicts)?",
      "max by (topic, verdict) (routingkit_skew_verdict{verdict=~\"KEEP_HEADROOM|FIX_KEY_DESIGN\"})"
          + " == 1"),
  /** A 32-bit fingerprint of the routing-relevant spec. */
  SPEC_FINGERPRINT("spec.fingerprint", Kind.GAUGE, Scope.TOPIC, "1",
      "Do all producers of a topic route alike (one fingerprint per topic)?",
      "count by (topic) (count_values by (topic) (\"fingerprint\", routingkit_spec_fingerprint))"
          + " > 1"),
  /** The canary share in force (absent without a canary). */
  CANARY_SHARE("canary.share", Kind.GAUGE, Scope.TOPIC, "1",
      "What share of the keys does the new router route right now?",
      "max by (topic) (routingkit_canary_share)"),
  /** The index of the canary schedule's step in force, -1 before its first step. */
  CANARY_STEP("canary.step", Kind.GAUGE, Scope.TOPIC, "1",
      "Which step of the canary schedule is every producer at (all equal after a step)?",
      "min by (topic) (routingkit_canary_step) != max by (topic) (routingkit_canary_step)"),
  /** Keyed records the canary's new router routed. */
  CANARY_RECORDS("canary.records", Kind.COUNTER, Scope.ROUTER, "{record}",
      "How many records does the new router actually route (against all keyed records)?",
      "sum(rate(routingkit_canary_records_total[5m])) / sum(rate(routingkit_records_keyed_total"
          + "[5m]))"),
  /** The routing generation untagged records take, as a label (value 1). */
  GENERATION("generation", Kind.INFO, Scope.TOPIC, "1",
      "Which routing generation is in effect (a canary schedule's, else the default version)?",
      "count by (topic, generation) (routingkit_generation)"),
  /** Keyless batch switches of the Kafka adapter's default keyless policy. */
  KEYLESS_BATCH_SWITCHES("keyless.batch.switches", Kind.COUNTER, Scope.TOPIC, "{switch}",
      "How often does the keyless sticky partition change (records per batch = keyless rate /"
          + " this rate)?",
      "rate(routingkit_records_keyless_total[5m]) / ignoring(partition) group_left"
          + " rate(routingkit_keyless_batch_switches_total[5m])"),
  /** The number of keys detected hot right now. */
  HOTKEYS("hotkeys", Kind.GAUGE, Scope.ROUTER, "{key}",
      "How many keys are hot right now?", "max(routingkit_hotkeys)"),
  /** The estimated share of the rank-th hottest key; the key itself is a label or attribute. */
  HOTKEY_SHARE("hotkey.share", Kind.GAUGE, Scope.HOT_KEY, "1",
      "Which keys are hot, and what share of the records does each carry?",
      "topk(5, routingkit_hotkey_share)"),
  /** The most the rank-th hot key's share may be over-estimated by. */
  HOTKEY_SHARE_ERROR("hotkey.share.error", Kind.GAUGE, Scope.HOT_KEY, "1",
      "How far off can a hot key's share be (the true share is in [share - error, share])?",
      "routingkit_hotkey_share - routingkit_hotkey_share_error"),
  /** Assignments the group leader computed. */
  ASSIGNMENTS("assignments", Kind.COUNTER, Scope.ASSIGNOR, "{rebalance}",
      "How often does the group rebalance (counted on the leader)?",
      "increase(routingkit_assignments_total[1h])"),
  /** Time spent computing assignments, in milliseconds. */
  ASSIGNMENT_TIME("assignment.time", Kind.COUNTER, Scope.ASSIGNOR, "ms",
      "How long does computing an assignment take on average?",
      "rate(routingkit_assignment_time_total[1h]) / rate(routingkit_assignments_total[1h])"),
  /** The longest assignment computation so far, in milliseconds. */
  ASSIGNMENT_TIME_MAX("assignment.time.max", Kind.GAUGE, Scope.ASSIGNOR, "ms",
      "What was the slowest assignment?", "max(routingkit_assignment_time_max)"),
  /** Partitions given to a member that did not claim them, over all assignments. */
  PARTITIONS_MOVED("partitions.moved", Kind.COUNTER, Scope.ASSIGNOR, "{partition}",
      "How many partitions change owner per rebalance (stickiness)?",
      "increase(routingkit_partitions_moved_total[1h]) / increase(routingkit_assignments_total[1h])"),
  /** Partitions moved by the last assignment. */
  PARTITIONS_MOVED_LAST("partitions.moved.last", Kind.GAUGE, Scope.ASSIGNOR, "{partition}",
      "How many partitions did the last rebalance move?", "routingkit_partitions_moved_last"),
  /** The group shape of the last assignment, one series per shape (1 for the current one). */
  GROUP_SHAPE("group.shape", Kind.STATE_SET, Scope.ASSIGNOR, "1",
      "Which builder did the last assignment take, and so which guarantees apply?",
      "max by (shape) (routingkit_group_shape) == 1"),
  /** Members of the last assignment. */
  GROUP_MEMBERS("group.members", Kind.GAUGE, Scope.ASSIGNOR, "{member}",
      "How many members did the last assignment have?", "routingkit_group_members"),
  /** max - min partitions per member after the last assignment. */
  BALANCE_SPREAD("balance.spread", Kind.GAUGE, Scope.ASSIGNOR, "{partition}",
      "How far apart are the busiest and the idlest member (partitions)?",
      "max(routingkit_balance_spread)"),
  /** max/mean partitions per member after the last assignment. */
  BALANCE_MAX_OVER_MEAN("balance.max.over.mean", Kind.GAUGE, Scope.ASSIGNOR, "1",
      "How much more than the average does the busiest member read?",
      "max(routingkit_balance_max_over_mean)");

  /** How a metric's value behaves. */
  public enum Kind {
    /** A monotonic count since the client started: scrapers turn it into a rate. */
    COUNTER,
    /** A value that goes up and down. */
    GAUGE,
    /** One series per state, labelled with it; 1 for the state in force, 0 for the others. */
    STATE_SET,
    /** One series with a descriptive label and the value 1. */
    INFO
  }

  /** What one series of the metric describes, which sets its labels. */
  public enum Scope {
    /** One router instance: a Kafka producer (all its topics) or a Pulsar producer. */
    ROUTER,
    /** One topic of a router instance. */
    TOPIC,
    /** One partition of a topic of a router instance. */
    PARTITION,
    /** One rank (1 = hottest) among the hot keys of a router instance. */
    HOT_KEY,
    /** One Kafka assignor instance (a consumer). */
    ASSIGNOR
  }

  /** How many hot keys are published, ranks 1 to this. */
  public static final int HOT_KEY_RANKS = 10;

  private final String id;
  private final Kind kind;
  private final Scope scope;
  private final String unit;
  private final String question;
  private final String query;

  RoutingMetric(String id, Kind kind, Scope scope, String unit, String question, String query) {
    this.id = id;
    this.kind = kind;
    this.scope = scope;
    this.unit = unit;
    this.question = question;
    this.query = query;
  }

  /** Returns the dotted name, e.g. {@code records.keyed}. */
  public String id() {
    return id;
  }

  /** Returns the kind. */
  public Kind kind() {
    return kind;
  }

  /** Returns the scope. */
  public Scope scope() {
    return scope;
  }

  /** Returns the unit in UCUM form as OpenTelemetry takes it, e.g. {@code {record}}, {@code ms}, {@code 1}. */
  public String unit() {
    return unit;
  }

  /** Returns the question the metric answers. */
  public String question() {
    return question;
  }

  /** Returns a Prometheus query for a Grafana panel, on the {@link #prometheusName()} names. */
  public String query() {
    return query;
  }

  /**
   * Returns the attribute name in Kafka's convention: the id with dashes, counters ending in
   * {@code -total}, e.g. {@code records-keyed-total}.
   */
  public String kafkaName() {
    return id.replace('.', '-') + (kind == Kind.COUNTER ? "-total" : "");
  }

  /**
   * Returns the Kafka metric group, the {@code type} of the JMX bean, e.g.
   * {@code routing-partitioner-partition-metrics}.
   */
  public String kafkaGroup() {
    switch (scope) {
      case ROUTER:
        return "routing-partitioner-metrics";
      case TOPIC:
        return "routing-partitioner-topic-metrics";
      case PARTITION:
        return "routing-partitioner-partition-metrics";
      case HOT_KEY:
        return "routing-partitioner-hot-key-metrics";
      default:
        return "routing-assignor-metrics";
    }
  }

  /** Returns the OpenTelemetry and Micrometer name, e.g. {@code routingkit.records.keyed}. */
  public String otelName() {
    return "routingkit." + id;
  }

  /**
   * Returns the name Prometheus shows for the OpenTelemetry and Micrometer exports (and for JMX
   * with the exporter rule in docs/metrics.md), e.g. {@code routingkit_records_keyed_total}.
   */
  public String prometheusName() {
    return "routingkit_" + id.replace('.', '_') + (kind == Kind.COUNTER ? "_total" : "");
  }

  /** Returns the label of a state-set or info metric ({@code verdict}, {@code shape}, {@code generation}), or null. */
  public String stateLabel() {
    if (this == SKEW_VERDICT) {
      return "verdict";
    }
    if (this == GROUP_SHAPE) {
      return "shape";
    }
    return this == GENERATION ? "generation" : null;
  }

  /** Returns the states of a state-set metric (empty for other kinds). */
  public List<String> states() {
    List<String> out = new ArrayList<>();
    if (this == SKEW_VERDICT) {
      for (SkewVerdict v : SkewVerdict.values()) {
        out.add(v.name());
      }
    } else if (this == GROUP_SHAPE) {
      for (GroupShape s : GroupShape.values()) {
        out.add(s.name());
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** Returns the metrics of one scope, in catalogue order. */
  public static List<RoutingMetric> of(Scope scope) {
    List<RoutingMetric> out = new ArrayList<>();
    for (RoutingMetric m : values()) {
      if (m.scope == scope) {
        out.add(m);
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Returns the reference table of docs/metrics.md: one row per metric with its Kafka bean and
   * attribute, its OpenTelemetry / Micrometer name, kind, unit, question and query; ends with a
   * line break.
   */
  public static String markdownTable() {
    StringBuilder sb = new StringBuilder("| metric (OpenTelemetry, Micrometer) | Kafka JMX"
        + " `type` / attribute | kind | unit | question | Prometheus query |\n"
        + "|---|---|---|---|---|---|\n");
    for (RoutingMetric m : values()) {
      sb.append("| `").append(m.otelName()).append("` | `").append(m.kafkaGroup()).append("` / `")
          .append(m.kafkaName()).append("` | ").append(m.kind.name().toLowerCase(java.util.Locale.ROOT))
          .append(m.stateLabel() == null ? "" : " (`" + m.stateLabel() + "`)").append(" | `")
          .append(m.unit).append("` | ").append(m.question).append(" | `")
          .append(m.query.replace("|", "\\|")).append("` |\n");
    }
    return sb.toString();
  }
}
