package io.github.routingkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.pulsar.KeySharedPredictor;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code routing locate} on a Pulsar topic, through the admin REST API only: the partition count
 * ({@code /partitions}), the partition's owner broker ({@code /lookup/v2/topic/...}) and its
 * subscriptions ({@code /stats}). Per subscription: Key_Shared, the consumer whose
 * {@code keyHashRangeArrays} (else {@code keyHashRanges}) hold the key's slot, the slot computed
 * as the broker's selector computes it ({@link KeySharedPredictor.Selector#slot(byte[])}: Murmur3
 * of the sticky key, no ordering key assumed); Failover, the {@code activeConsumerName}; Exclusive,
 * its consumer; Shared, every consumer in turn. The selector is told from the ranges: STICKY mode
 * is the sticky selector, ranges that start at 0 the auto-split selector, ranges beyond 65,535 the
 * classic dispatcher's consistent hashing, else 4.x consistent hashing.
 */
final class PulsarLocate implements LocateTarget {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String adminUrl;
  private final String topic;
  private final List<String> subscriptions;
  private final Duration timeout;
  private final HttpClient http;
  private final List<String> notes = new ArrayList<>();

  /** What a Key_Shared answer assumes of the producers (lint rule RK021). */
  static final String BATCHING_NOTE = "a Key_Shared subscription delivers a batch by its first"
      + " message's key: the consumer named receives all of the key's messages from producers"
      + " with batching off or key-based batching (BatcherBuilder.KEY_BASED); a producer batching"
      + " with the default batcher sends some of them to other consumers (routing lint RK021)";
  private int partitions;
  private boolean partitioned;

  private PulsarLocate(String adminUrl, String topic, List<String> subscriptions,
      Duration timeout) {
    this.adminUrl = adminUrl.replaceAll("/+$", "");
    this.topic = PulsarTopic.fullName(topic);
    this.subscriptions = subscriptions;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /**
   * Reads the topic's partition count.
   *
   * @param subscriptions the subscriptions to report, or null for all of the key's partition
   * @throws KeyInput.InputException if the admin API is unreachable or refuses, or the topic does
   *     not exist
   */
  static PulsarLocate open(String adminUrl, String topic, List<String> subscriptions,
      Duration timeout) {
    PulsarLocate p = new PulsarLocate(adminUrl, topic, subscriptions, timeout);
    JsonNode meta = p.get("/admin/v2/" + p.path(p.topic) + "/partitions", "the partitions of");
    int n = meta == null ? 0 : meta.path("partitions").asInt(0);
    p.partitioned = n > 0;
    if (n == 0 && p.get("/admin/v2/" + p.path(p.topic) + "/stats", "the stats of") == null) {
      throw new KeyInput.InputException(p.describe() + ": no such topic");
    }
    p.partitions = Math.max(1, n);
    return p;
  }

  /** {@code persistent://t/ns/name} → {@code persistent/t/ns/name}, the name URL-encoded. */
  private String path(String fullName) {
    String rest = fullName.replace("://", "/");
    int slash = rest.lastIndexOf('/');
    return rest.substring(0, slash) + "/" + URLEncoder.encode(rest.substring(slash + 1),
        StandardCharsets.UTF_8).replace("+", "%20");
  }

  private String partitionName(int partition) {
    return partitioned ? topic + "-partition-" + partition : topic;
  }

  @Override
  public String describe() {
    return "pulsar topic " + topic + " at " + adminUrl;
  }

  @Override
  public int partitions() {
    return partitions;
  }

  @Override
  public Fact leader(int partition) {
    String name = partitionName(partition);
    JsonNode r = get("/lookup/v2/topic/" + path(name), "the owner broker of");
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("topic", name);
    String broker = r == null ? null : r.path("brokerUrl").asText(null);
    j.put("brokerUrl", broker);
    j.put("httpUrl", r == null ? null : r.path("httpUrl").asText(null));
    return new Fact(name + " owned by " + (broker == null ? "no broker" : broker), j);
  }

  @Override
  public List<Fact> readers(int partition, byte[] key) {
    String name = partitionName(partition);
    JsonNode stats = get("/admin/v2/" + path(name) + "/stats", "the stats of");
    List<Fact> out = new ArrayList<>();
    JsonNode subs = stats == null ? JSON.createObjectNode() : stats.path("subscriptions");
    if (subscriptions != null) {
      for (String s : subscriptions) {
        if (!subs.has(s)) {
          throw new KeyInput.InputException("--subscription " + s + ": " + name
              + " has no such subscription (it has: " + names(subs) + ")");
        }
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = subs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (subscriptions == null || subscriptions.contains(e.getKey())) {
        out.add(subscription(e.getKey(), e.getValue(), key));
      }
    }
    return out;
  }

  private static String names(JsonNode subs) {
    List<String> n = new ArrayList<>();
    subs.fieldNames().forEachRemaining(n::add);
    return n.isEmpty() ? "none" : String.join(", ", n);
  }

  /** The selector whose ranges these are (see the class comment). */
  static KeySharedPredictor.Selector selector(String mode, List<int[]> ranges) {
    if ("STICKY".equals(mode)) {
      return KeySharedPredictor.Selector.STICKY;
    }
    boolean zero = false;
    boolean wide = false;
    for (int[] r : ranges) {
      zero |= r[0] == 0;
      wide |= r[1] > KeySharedPredictor.HASH_RANGE_SIZE - 1;
    }
    return wide ? KeySharedPredictor.Selector.CONSISTENT_HASHING_CLASSIC
        : zero ? KeySharedPredictor.Selector.AUTO_SPLIT
        : KeySharedPredictor.Selector.CONSISTENT_HASHING;
  }

  /** A consumer's inclusive ranges: {@code keyHashRangeArrays}, else {@code keyHashRanges}. */
  static List<int[]> ranges(JsonNode consumer) {
    List<int[]> out = new ArrayList<>();
    JsonNode arrays = consumer.path("keyHashRangeArrays");
    if (arrays.isArray() && arrays.size() > 0) {
      arrays.forEach(a -> out.add(new int[] {a.path(0).asInt(), a.path(1).asInt()}));
      return out;
    }
    consumer.path("keyHashRanges").forEach(s -> {
      String[] f = s.asText().replaceAll("[\\[\\]() ]", "").split(",");
      if (f.length == 2) {
        try {
          out.add(new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])});
        } catch (NumberFormatException e) {
          // a format this version does not know: the consumer is not matched
        }
      }
    });
    return out;
  }

  private Fact subscription(String sub, JsonNode s, byte[] key) {
    Map<String, Object> j = new LinkedHashMap<>();
    String type = s.path("type").asText("unknown");
    j.put("subscription", sub);
    j.put("type", type);
    j.put("backlog", s.path("msgBacklog").asLong(-1));
    List<JsonNode> consumers = new ArrayList<>();
    s.path("consumers").forEach(consumers::add);
    j.put("consumers", consumers.size());
    String who;
    String consumer = null;
    switch (type) {
      case "Key_Shared": {
        String mode = s.path("keySharedMode").asText(null);
        List<int[]> all = new ArrayList<>();
        consumers.forEach(c -> all.addAll(ranges(c)));
        KeySharedPredictor.Selector selector = selector(mode, all);
        int slot = selector.slot(key);
        j.put("keySharedMode", mode);
        j.put("selector", selector.name());
        j.put("slot", slot);
        int[] holding = null;
        for (JsonNode c : consumers) {
          for (int[] r : ranges(c)) {
            if (r[0] <= slot && slot <= r[1]) {
              consumer = c.path("consumerName").asText();
              holding = r;
            }
          }
        }
        if (consumers.isEmpty()) {
          who = "no consumer connected";
        } else if (all.isEmpty()) {
          who = "the stats list no hash ranges (a broker before 2.8?): cannot tell the consumer";
        } else {
          who = consumer == null ? "no consumer's hash range holds slot " + slot
              + " (a sticky range gap: the key is delivered to nobody)"
              : "consumer " + consumer + " (hash range [" + holding[0] + ", " + holding[1]
              + "] holds slot " + slot + ")";
        }
        if (!notes.contains(BATCHING_NOTE)) {
          notes.add(BATCHING_NOTE);
        }
        who = "Key_Shared " + (mode == null ? "" : mode + ", ")
            + selector.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ": " + who;
        break;
      }
      case "Failover":
        consumer = s.path("activeConsumerName").asText(null);
        who = "Failover: " + (consumer == null ? "no active consumer" : "active consumer "
            + consumer);
        break;
      case "Exclusive":
        consumer = consumers.isEmpty() ? null : consumers.get(0).path("consumerName").asText();
        who = "Exclusive: " + (consumer == null ? "no consumer connected" : "consumer " + consumer);
        break;
      default:
        List<String> n = new ArrayList<>();
        consumers.forEach(c -> n.add(c.path("consumerName").asText()));
        who = type + ": " + (n.isEmpty() ? "no consumer connected"
            : "any of " + String.join(", ", n) + " (messages are spread over them, not by key)");
    }
    j.put("consumer", consumer);
    return new Fact("subscription " + sub + " (" + who + "); backlog "
        + s.path("msgBacklog").asLong(-1), j);
  }

  @Override
  public List<String> notes() {
    return notes;
  }

  /** GETs a path of the admin API; null on HTTP 404; every other failure is bad input. */
  private JsonNode get(String path, String what) {
    URI uri;
    try {
      uri = URI.create(adminUrl + path);
    } catch (IllegalArgumentException e) {
      throw new KeyInput.InputException("bad --admin-url " + adminUrl + ": " + e.getMessage());
    }
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout)
          .header("Accept", "application/json").GET().build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (r.statusCode() == 401 || r.statusCode() == 403) {
        throw new KeyInput.InputException("not authorized to read " + what + " " + topic
            + " from the Pulsar admin API at " + adminUrl + " (HTTP " + r.statusCode() + ")");
      }
      if (r.statusCode() == 404) {
        return null;
      }
      if (r.statusCode() / 100 != 2) {
        throw new KeyInput.InputException("the Pulsar admin API at " + adminUrl + " answered HTTP "
            + r.statusCode() + " for " + what + " " + topic);
      }
      return JSON.readTree(r.body());
    } catch (java.net.http.HttpTimeoutException e) {
      throw new KeyInput.InputException("the Pulsar admin API at " + adminUrl
          + " did not answer within " + LiveTopic.text(timeout));
    } catch (java.net.ConnectException e) {
      throw new KeyInput.InputException("cannot reach the Pulsar admin API at " + adminUrl
          + " (connection refused)");
    } catch (IOException | IllegalArgumentException e) {
      throw new KeyInput.InputException("cannot read " + what + " " + topic
          + " from the Pulsar admin API at " + adminUrl + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyInput.InputException("interrupted");
    }
  }

  @Override
  public void close() {
    // the HttpClient holds no connection beyond its requests
  }
}
