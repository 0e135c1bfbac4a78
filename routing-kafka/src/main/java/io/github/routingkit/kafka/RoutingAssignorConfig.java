package io.github.routingkit.kafka;

import io.github.routingkit.config.RoutingProperty;
import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.assignment.AssignableTopic;
import io.github.routingkit.assignment.GroupMember;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigException;

/**
 * The properties read by {@link RoutingAssignor} (consumer configs) and by
 * {@link RoutingGroupAssignor} (broker configs). All are optional; other keys are ignored, so the whole consumer
 * (or broker) config can be passed in. Each key belongs to one side: {@link RoutingAssignor}
 * refuses {@value #INSTANCE_WEIGHTS}, and {@link RoutingGroupAssignor} refuses the other three,
 * rather than accept a setting that would do nothing.
 *
 * <table>
 *   <caption>routing.assignor.* properties</caption>
 *   <tr><th>key</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #WEIGHT}</td><td>int in [1, 1000000]</td><td>1</td><td>this member's relative
 *       capacity; sent to the group leader in the subscription's userData</td></tr>
 *   <tr><td>{@value #TOPIC_WEIGHTS}</td><td>{@code topic:weight,...}, weight in [1, 1000]</td>
 *       <td>empty (every topic 1)</td><td>the load one partition of a topic counts for; only the
 *       group leader's value is used, so give every member the same value</td></tr>
 *   <tr><td>{@value #INSTANCE_WEIGHTS}</td><td>{@code instance:weight,...}, weight in
 *       [1, 1000000]</td><td>empty</td><td>broker config only (the broker-side assignor has no
 *       userData): weights of static members by {@code group.instance.id}</td></tr>
 *   <tr><td>{@value #REBALANCE_PROTOCOL}</td><td>{@code cooperative | eager}</td>
 *       <td>{@code cooperative}</td><td>{@code cooperative} supports both protocols (Kafka picks
 *       COOPERATIVE); {@code eager} supports only EAGER</td></tr>
 * </table>
 *
 * <p>A bad value throws {@link ConfigException} naming the property, the value and the rule, when
 * the consumer is created.
 */
public final class RoutingAssignorConfig {
  /** This member's weight: an int in [1, 1000000], default 1. */
  public static final String WEIGHT = "routing.assignor.weight";
  /** Per-topic weights, {@code topic:weight} pairs separated by commas; weights in [1, 1000]. */
  public static final String TOPIC_WEIGHTS = "routing.assignor.topic.weights";
  /**
   * Broker side only ({@link RoutingGroupAssignor}, which has no userData): weights of static
   * members, {@code group.instance.id:weight} pairs separated by commas; weights in [1, 1000000].
   */
  public static final String INSTANCE_WEIGHTS = "routing.assignor.instance.weights";
  /**
   * {@code cooperative} (default: supports COOPERATIVE and EAGER) or {@code eager} (EAGER only),
   * in any case, as Kafka reads its own enum configs.
   */
  public static final String REBALANCE_PROTOCOL = "routing.assignor.rebalance.protocol";

  /** Every routing.assignor.* key, sorted: the catalogue's {@link RoutingProperty.Layer#ASSIGNOR} keys. */
  static final java.util.Set<String> KNOWN = RoutingProperty.keys(RoutingProperty.Layer.ASSIGNOR);

  private final int weight;
  private final Map<String, Integer> topicWeights;
  private final Map<String, Integer> instanceWeights;
  private final boolean eagerOnly;

  private RoutingAssignorConfig(int weight, Map<String, Integer> topicWeights,
      Map<String, Integer> instanceWeights, boolean eagerOnly) {
    this.weight = weight;
    this.topicWeights = Collections.unmodifiableMap(topicWeights);
    this.instanceWeights = Collections.unmodifiableMap(instanceWeights);
    this.eagerOnly = eagerOnly;
  }

  /** The defaults: weight 1, no topic weights, cooperative. */
  public static RoutingAssignorConfig defaults() {
    return new RoutingAssignorConfig(1, new TreeMap<>(), new TreeMap<>(), false);
  }

  /**
   * Reads the {@code routing.assignor.*} entries of {@code configs}.
   *
   * @throws ConfigException naming the property, the value and the rule, for a bad value or an
   *     unknown {@code routing.assignor.*} key (a typo would otherwise go unnoticed)
   */
  public static RoutingAssignorConfig parse(Map<String, ?> configs) {
    for (String key : configs.keySet()) {
      if (key != null && key.startsWith(RoutingSpec.ASSIGNOR_PREFIX) && !KNOWN.contains(key)) {
        // the write-side RoutingSpec skips routing.assignor.*, so a typo would go unnoticed
        String near = didYouMean(key);
        throw new ConfigException(key, configs.get(key), "unknown property"
            + (near == null ? "" : " (did you mean " + near + "?)")
            + ", known routing assignor properties are " + KNOWN);
      }
    }
    int weight = 1;
    Object w = configs.get(WEIGHT);
    if (w != null) {
      weight = parseInt(WEIGHT, w, 1, GroupMember.MAX_WEIGHT);
    }
    Map<String, Integer> topicWeights =
        parsePairs(TOPIC_WEIGHTS, configs.get(TOPIC_WEIGHTS), "topic", AssignableTopic.MAX_WEIGHT);
    Map<String, Integer> instanceWeights =
        parsePairs(INSTANCE_WEIGHTS, configs.get(INSTANCE_WEIGHTS), "instance", GroupMember.MAX_WEIGHT);
    boolean eagerOnly = false;
    Object p = configs.get(REBALANCE_PROTOCOL);
    if (p != null) {
      String s = p.toString().trim().toLowerCase(Locale.ROOT);
      if (!s.equals("cooperative") && !s.equals("eager")) {
        throw new ConfigException(REBALANCE_PROTOCOL, p, "must be one of [cooperative, eager]");
      }
      eagerOnly = s.equals("eager");
    }
    return new RoutingAssignorConfig(weight, topicWeights, instanceWeights, eagerOnly);
  }

  /**
   * {@link #parse} for the classic consumer-side {@link RoutingAssignor}: also refuses
   * {@value #INSTANCE_WEIGHTS}, which only the broker-side assignor reads.
   *
   * @throws ConfigException naming the property, the value and the rule, as {@link #parse} does,
   *     and for {@value #INSTANCE_WEIGHTS}
   */
  static RoutingAssignorConfig parseForConsumer(Map<String, ?> configs) {
    RoutingAssignorConfig parsed = parse(configs);
    Object v = configs.get(INSTANCE_WEIGHTS);
    if (v != null) {
      throw new ConfigException(INSTANCE_WEIGHTS, v, "has no effect on RoutingAssignor (the"
          + " classic consumer-side assignor, partition.assignment.strategy): it applies to"
          + " RoutingGroupAssignor in the broker config (KIP-848, group.consumer.assignors);"
          + " give each consumer its capacity with " + WEIGHT + " in its own config instead");
    }
    return parsed;
  }

  /**
   * {@link #parse} for the broker-side {@link RoutingGroupAssignor}: the broker passes its whole
   * config, of which only the {@code routing.assignor.*} keys are read; refuses the keys only the
   * classic assignor reads ({@value #WEIGHT}, {@value #TOPIC_WEIGHTS},
   * {@value #REBALANCE_PROTOCOL}).
   *
   * @throws ConfigException naming the property, the value and the rule, as {@link #parse} does,
   *     and for a classic-only key
   */
  static RoutingAssignorConfig parseForBroker(Map<String, ?> configs) {
    RoutingAssignorConfig parsed = parse(configs);
    for (String key : List.of(WEIGHT, TOPIC_WEIGHTS, REBALANCE_PROTOCOL)) {
      Object v = configs.get(key);
      if (v != null) {
        String why;
        if (key.equals(WEIGHT)) {
          why = "a broker-wide value cannot weigh one member; weigh static members"
              + " (group.instance.id) here with " + INSTANCE_WEIGHTS;
        } else if (key.equals(TOPIC_WEIGHTS)) {
          why = "the broker-side assignor knows topics only by id, so per-topic"
              + " weights are not supported with KIP-848";
        } else {
          why = "under KIP-848 the group coordinator reconciles revocations itself, there"
              + " is no EAGER or COOPERATIVE protocol to choose";
        }
        throw new ConfigException(key, v, "has no effect on RoutingGroupAssignor (KIP-848"
            + " broker-side assignor); it applies to the classic RoutingAssignor, set in consumer"
            + " configs with partition.assignment.strategy (group.protocol=classic); " + why);
      }
    }
    return parsed;
  }

  /** The known key a typo most likely meant, or null: the producer config's suggestion rule. */
  private static String didYouMean(String key) {
    return RoutingSpec.nearest(key, KNOWN);
  }

  private static Map<String, Integer> parsePairs(String key, Object value, String what, int max) {
    Map<String, Integer> out = new TreeMap<>();
    if (value == null || value.toString().isBlank()) {
      return out;
    }
    for (String entry : value.toString().split(",", -1)) {
      if (entry.isBlank()) { // "a:1," or ",": a list of empty entries, as the segment lists refuse
        throw new ConfigException(key, value, "must be a comma-separated list of " + what
            + ":weight entries, none of them empty");
      }
      int colon = entry.lastIndexOf(':');
      String name = colon < 0 ? "" : entry.substring(0, colon).trim();
      if (name.isEmpty()) {
        throw new ConfigException(key, value,
            "each entry must be " + what + ":weight, found '" + entry.trim() + "'");
      }
      int v = parseInt(key, value, 1, max, entry.substring(colon + 1).trim());
      if (out.put(name, v) != null) {
        throw new ConfigException(key, value, what + " " + name + " must appear at most once");
      }
    }
    return out;
  }

  private static int parseInt(String key, Object value, int min, int max) {
    return parseInt(key, value, min, max, value.toString().trim());
  }

  private static int parseInt(String key, Object value, int min, int max, String text) {
    try {
      if (!text.matches("[0-9]+")) { // Integer.parseInt also takes '+' and other scripts' digits
        throw new NumberFormatException(text);
      }
      int v = Integer.parseInt(text);
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new ConfigException(key, value, "weights must be integers in [" + min + ", " + max + "], found '" + text + "'");
  }

  /** This member's weight, in [1, 1000000]. */
  public int weight() {
    return weight;
  }

  /** Topic name to weight in [1, 1000]; topics not listed weigh 1. */
  public Map<String, Integer> topicWeights() {
    return topicWeights;
  }

  /** Static member ({@code group.instance.id}) to weight in [1, 1000000]; others weigh 1. */
  public Map<String, Integer> instanceWeights() {
    return instanceWeights;
  }

  /** Whether only the EAGER protocol is supported. */
  public boolean eagerOnly() {
    return eagerOnly;
  }
}
