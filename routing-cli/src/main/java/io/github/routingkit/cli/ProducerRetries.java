package io.github.routingkit.cli;

import io.github.routingkit.cli.LintFinding.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * RK015: a Kafka producer that retries a failed batch while later batches of the same partition
 * are in flight, with no idempotence to make the broker refuse them out of sequence: the retried
 * batch lands behind a later one (the audit's {@code PRODUCER_RETRY}). Each client with its own
 * keys and defaults:
 * <ul>
 *   <li>kafka-clients: {@code enable.idempotence} (default true, but turned off without a word
 *       when it is not set and {@code acks} is not {@code all}, {@code retries=0} or
 *       {@code max.in.flight.requests.per.connection} is above 5; set to true with such a value,
 *       the producer is refused with a ConfigException), {@code retries} (default
 *       2147483647), {@code max.in.flight.requests.per.connection} (5), {@code acks} (all); a
 *       {@code transactional.id} needs idempotence;</li>
 *   <li>librdkafka: {@code enable.idempotence} (false), {@code retries} /
 *       {@code message.send.max.retries} (2147483647), {@code max.in.flight.requests.per.connection}
 *       / {@code max.in.flight} (1000000), {@code acks} / {@code request.required.acks} (all);</li>
 *   <li>Sarama: {@code Producer.Idempotent} (false), {@code Producer.Retry.Max} (3),
 *       {@code Net.MaxOpenRequests} (5), {@code Producer.RequiredAcks} (WaitForLocal);</li>
 *   <li>KafkaJS: {@code idempotent} (false), {@code retry.retries} (5),
 *       {@code maxInFlightRequests} (unlimited), {@code acks} (-1).</li>
 * </ul>
 * With {@code acks=0} no error comes back, so nothing is retried.
 */
final class ProducerRetries {
  private ProducerRetries() {}

  private record Settings(String idempotenceKey, Boolean idempotence, String retriesKey,
      long retries, String inFlightKey, long inFlight, String acksKey, String acks) {}

  static void check(ConfigLint.Producer p, boolean keyOrder, List<LintFinding> out) {
    LintFile f = p.file();
    Settings s = switch (p.client()) {
      case KAFKA_JAVA -> new Settings("enable.idempotence", bool(f, "enable.idempotence"),
          "retries", f.longValue("retries", Integer.MAX_VALUE),
          "max.in.flight.requests.per.connection",
          f.longValue("max.in.flight.requests.per.connection", 5), "acks", acks(f, "acks"));
      case LIBRDKAFKA -> {
        String retriesKey = f.has("retries") ? "retries" : "message.send.max.retries";
        String inFlightKey = f.has("max.in.flight") ? "max.in.flight"
            : "max.in.flight.requests.per.connection";
        String acksKey = f.has("request.required.acks") ? "request.required.acks" : "acks";
        yield new Settings("enable.idempotence", f.bool("enable.idempotence", false),
            retriesKey, f.longValue(retriesKey, Integer.MAX_VALUE), inFlightKey,
            f.longValue(inFlightKey, 1_000_000), acksKey, acks(f, acksKey));
      }
      case SARAMA -> new Settings("Producer.Idempotent", f.bool("Producer.Idempotent", false),
          "Producer.Retry.Max", f.longValue("Producer.Retry.Max", 3), "Net.MaxOpenRequests",
          f.longValue("Net.MaxOpenRequests", 5), "Producer.RequiredAcks",
          "NoResponse".equals(f.get("Producer.RequiredAcks")) ? "0" : "1");
      case KAFKAJS -> new Settings("idempotent", f.bool("idempotent", false), "retry.retries",
          f.longValue("retry.retries", 5), "maxInFlightRequests",
          f.longValue("maxInFlightRequests", Long.MAX_VALUE), "acks", acks(f, "acks"));
      default -> null;
    };
    if (s == null) {
      return;
    }
    String head = shown(f, s.idempotenceKey, "false");
    boolean idempotent;
    if (s.idempotence != null) {
      idempotent = s.idempotence;
    } else {
      // kafka-clients: on by default, off without a word where a setting conflicts with it
      List<String> conflicts = conflicts(s);
      idempotent = conflicts.isEmpty();
      head = "enable.idempotence is not set, and kafka-clients turns its default (true) off"
          + " because of " + String.join(" and ", conflicts);
    }
    if (p.client() == LintClient.KAFKA_JAVA && Boolean.TRUE.equals(s.idempotence)
        && !conflicts(s).isEmpty()) {
      out.add(new LintFinding(LintRule.RK015, Severity.ERROR, f, f.line(s.idempotenceKey),
          "enable.idempotence=true with " + String.join(" and ", conflicts(s)) + ": kafka-clients"
          + " refuses the producer with a ConfigException when it is created",
          "acks=all, retries above 0 and max.in.flight.requests.per.connection at most 5"));
      return;
    }
    if (!keyOrder || idempotent || s.acks.equals("0") || s.retries <= 0 || s.inFlight <= 1) {
      return;
    }
    int line = f.line(s.idempotenceKey, s.inFlightKey, s.retriesKey, s.acksKey);
    out.add(new LintFinding(LintRule.RK015, Severity.ERROR, f, line, head + "; with "
        + shown(f, s.retriesKey, s.retries == Integer.MAX_VALUE ? "2147483647"
        : Long.toString(s.retries)) + " and " + shown(f, s.inFlightKey, s.inFlight
        == Long.MAX_VALUE ? "unlimited" : Long.toString(s.inFlight)) + ": a batch that fails"
        + " and is retried can land behind a later batch of the same partition that was already"
        + " in flight", idempotenceFix(p.client())));
  }

  private static String idempotenceFix(LintClient client) {
    return switch (client) {
      case KAFKA_JAVA -> "enable.idempotence=true with acks=all (the defaults) and"
          + " max.in.flight.requests.per.connection at most 5, or"
          + " max.in.flight.requests.per.connection=1";
      case LIBRDKAFKA -> "enable.idempotence=true (librdkafka then keeps order with up to 5"
          + " requests in flight), or max.in.flight.requests.per.connection=1";
      case SARAMA -> "Producer.Idempotent=true with Net.MaxOpenRequests=1 and"
          + " Producer.RequiredAcks=WaitForAll, or Net.MaxOpenRequests=1";
      default -> "idempotent=true with maxInFlightRequests=1, or maxInFlightRequests=1";
    };
  }

  /** The kafka-clients settings that conflict with idempotence, as written. */
  private static List<String> conflicts(Settings s) {
    List<String> out = new ArrayList<>();
    if (!s.acks.equals("-1")) {
      out.add(s.acksKey + "=" + s.acks);
    }
    if (s.retries == 0) {
      out.add(s.retriesKey + "=0");
    }
    if (s.inFlight > 5) {
      out.add(s.inFlightKey + "=" + s.inFlight);
    }
    return out;
  }

  private static String shown(LintFile f, String key, String defaultValue) {
    return f.has(key) ? key + "=" + f.get(key) : key + "=" + defaultValue + " (the default)";
  }

  private static Boolean bool(LintFile f, String key) {
    return f.has(key) ? f.bool(key, false) : null;
  }

  /** acks as -1, 0 or 1 ({@code all} is -1); the default all. */
  private static String acks(LintFile f, String key) {
    String v = f.get(key);
    return v == null || v.equalsIgnoreCase("all") ? "-1" : v;
  }
}
