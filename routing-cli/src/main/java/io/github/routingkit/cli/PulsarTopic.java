package io.github.routingkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Reader;
import org.apache.pulsar.client.api.ReaderBuilder;
import org.apache.pulsar.client.api.Schema;

/**
 * A Pulsar topic read live: one {@link Reader} per partition, one after the other, each on a
 * non-durable subscription that the broker drops when the reader closes (nothing is left
 * behind), so the partition of every message is known; and, where an admin URL is given, the
 * per-partition stats of the admin REST API ({@code partitioned-stats?perPartition=true}, or
 * {@code stats} for a non-partitioned topic): {@code msgInCounter}, {@code storageSize},
 * {@code msgRateIn} and the subscriptions' {@code msgBacklog}.
 *
 * <p>The topic is looked up with metadata auto-creation off, so analyzing a missing topic does not
 * create it. Each partition gives at most {@code ceil(limit / partitions)} messages (Pulsar's
 * binary protocol does not tell a partition's message count up front), so a sample that reaches
 * that cap on some partitions understates their share: the report says so.
 */
final class PulsarTopic implements LiveTopic {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String serviceUrl;
  private final String adminUrl;
  private final String topic;
  private final Window window;
  private final Duration since;
  private final Duration timeout;
  private final PulsarClient client;
  private final List<String> notes = new ArrayList<>();
  private List<String> partitionNames;
  private boolean partitioned;
  private List<PartitionSize> sizes;
  private String windowText = "";

  private PulsarTopic(String serviceUrl, String adminUrl, String topic, Window window,
      Duration since, Duration timeout) {
    this.serviceUrl = serviceUrl;
    this.adminUrl = adminUrl == null ? null : adminUrl.replaceAll("/+$", "");
    this.topic = fullName(topic);
    this.window = window;
    this.since = since;
    this.timeout = timeout;
    try {
      long ms = timeout.toMillis();
      this.client = PulsarClient.builder().serviceUrl(serviceUrl)
          .operationTimeout((int) Math.min(Integer.MAX_VALUE, ms), TimeUnit.MILLISECONDS)
          .connectionTimeout((int) Math.min(Integer.MAX_VALUE, ms), TimeUnit.MILLISECONDS)
          .lookupTimeout((int) Math.min(Integer.MAX_VALUE, ms), TimeUnit.MILLISECONDS)
          .build();
    } catch (PulsarClientException | IllegalArgumentException e) {
      throw new KeyInput.InputException("bad --service-url " + serviceUrl + ": " + e.getMessage());
    }
  }

  /**
   * Connects, looks the topic up (without creating it) and reads its stats where an admin URL is
   * given.
   *
   * @throws KeyInput.InputException if the broker is unreachable within {@code timeout}, the topic
   *     does not exist or the role may not look it up
   */
  static PulsarTopic open(String serviceUrl, String adminUrl, String topic, Window window,
      Duration since, Duration timeout) {
    PulsarTopic t = new PulsarTopic(serviceUrl, adminUrl, topic, window, since, timeout);
    try {
      t.lookUp();
      return t;
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /** {@code orders} → {@code persistent://public/default/orders}, as Pulsar's TopicName does. */
  static String fullName(String topic) {
    if (topic.contains("://")) {
      return topic;
    }
    String[] parts = topic.split("/", -1);
    if (parts.length == 1) {
      return "persistent://public/default/" + topic;
    }
    if (parts.length == 3) {
      return "persistent://" + topic;
    }
    throw new KeyInput.InputException("--topic " + topic + " is not a Pulsar topic name: give"
        + " NAME, TENANT/NAMESPACE/NAME or persistent://TENANT/NAMESPACE/NAME");
  }

  private void lookUp() {
    partitionNames = get(client.getPartitionsForTopic(topic, false), "look up");
    if (partitionNames.isEmpty()) {
      throw new KeyInput.InputException(describe() + ": no such topic");
    }
    partitioned = !(partitionNames.size() == 1 && partitionNames.get(0).equals(topic));
    if (partitionNames.size() > AnalyzeCommand.MAX_PARTITIONS) {
      throw new KeyInput.InputException(describe() + " has " + partitionNames.size()
          + " partitions, analyze lays out at most " + AnalyzeCommand.MAX_PARTITIONS);
    }
    List<PartitionSize> list = new ArrayList<>();
    JsonNode stats = adminUrl == null ? null : stats();
    if (adminUrl == null) {
      notes.add("no --admin-url: per-partition message counts, storage sizes, backlog and rates"
          + " come from the admin API");
    }
    for (int p = 0; p < partitionNames.size(); p++) {
      JsonNode s = stats == null ? null
          : partitioned ? stats.path("partitions").path(partitionNames.get(p)) : stats;
      if (s == null || s.isMissingNode()) {
        list.add(new PartitionSize(p, -1, -1, -1, -1, Double.NaN));
        continue;
      }
      long backlog = 0;
      for (Iterator<JsonNode> it = s.path("subscriptions").elements(); it.hasNext(); ) {
        backlog += it.next().path("msgBacklog").asLong(0);
      }
      list.add(new PartitionSize(p, s.path("msgInCounter").asLong(-1), -1,
          s.path("storageSize").asLong(-1), backlog, s.path("msgRateIn").asDouble(Double.NaN)));
    }
    sizes = List.copyOf(list);
  }

  /** The admin REST API's stats of the topic (per partition when partitioned). */
  private JsonNode stats() {
    String rest = topic.replace("://", "/");
    int slash = rest.lastIndexOf('/');
    String path = "/admin/v2/" + rest.substring(0, slash) + "/"
        + URLEncoder.encode(rest.substring(slash + 1), StandardCharsets.UTF_8).replace("+", "%20")
        + (partitioned ? "/partitioned-stats?perPartition=true" : "/stats");
    URI uri;
    try {
      uri = URI.create(adminUrl + path);
    } catch (IllegalArgumentException e) {
      throw new KeyInput.InputException("bad --admin-url " + adminUrl + ": " + e.getMessage());
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout)
          .header("Accept", "application/json").GET().build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (r.statusCode() == 401 || r.statusCode() == 403) {
        throw new KeyInput.InputException("not authorized to read the stats of " + topic
            + " from the Pulsar admin API at " + adminUrl + " (HTTP " + r.statusCode() + ")");
      }
      if (r.statusCode() == 404) {
        throw new KeyInput.InputException("the Pulsar admin API at " + adminUrl
            + " does not know " + topic + " (HTTP 404): does --admin-url name the same cluster"
            + " as --service-url?");
      }
      if (r.statusCode() != 200) {
        throw new KeyInput.InputException("the Pulsar admin API at " + adminUrl + " answered HTTP "
            + r.statusCode() + " for the stats of " + topic);
      }
      return JSON.readTree(r.body());
    } catch (java.net.http.HttpTimeoutException e) {
      throw new KeyInput.InputException("the Pulsar admin API at " + adminUrl
          + " did not answer within " + LiveTopic.text(timeout));
    } catch (java.net.ConnectException e) {
      throw new KeyInput.InputException("cannot reach the Pulsar admin API at " + adminUrl
          + " (connection refused)");
    } catch (IOException e) {
      throw new KeyInput.InputException("cannot read the stats of " + topic
          + " from the Pulsar admin API at " + adminUrl + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyInput.InputException("interrupted");
    }
  }

  /** Pulsar's routers hash {@code getKey()}, a byte key's Base64 text. */
  @Override
  public boolean routesKeyBytes() {
    return false;
  }

  @Override
  public String describe() {
    return "pulsar topic " + topic + " at " + serviceUrl;
  }

  @Override
  public String windowText() {
    return windowText;
  }

  @Override
  public int partitions() {
    return partitionNames.size();
  }

  @Override
  public List<PartitionSize> sizes() {
    return sizes;
  }

  @Override
  public Window window() {
    return window;
  }

  @Override
  public List<String> notes() {
    return notes;
  }

  @Override
  public ReadResult read(long limit, RecordSink sink, Progress progress) {
    int n = partitionNames.size();
    long cap = (limit + n - 1) / n;
    windowText = (window == Window.SINCE ? "messages since " + LiveTopic.text(since) + " ago"
        : "from the beginning") + String.format(Locale.ROOT, " (at most %,d per partition)", cap);
    long read = 0;
    int capped = 0;
    List<Integer> stalled = new ArrayList<>();
    int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    for (int p = 0; p < n; p++) {
      ReaderBuilder<byte[]> b = client.newReader(Schema.BYTES).topic(partitionNames.get(p))
          .readerName("routing-analyze").receiverQueueSize(1000);
      b = window == Window.SINCE
          ? b.startMessageFromRollbackDuration(since.toMillis(), TimeUnit.MILLISECONDS)
          : b.startMessageId(MessageId.earliest);
      Reader<byte[]> reader = get(b.createAsync(), "read");
      try {
        long taken = 0;
        while (true) {
          if (!reader.hasMessageAvailable()) {
            break;
          }
          if (taken >= cap) {
            capped++;
            break;
          }
          Message<byte[]> m = reader.readNext(ms, TimeUnit.MILLISECONDS);
          if (m == null) {
            stalled.add(p);
            break;
          }
          taken++;
          read++;
          sink.accept(p, m.hasKey() ? m.getKey() : null,
              m.hasKey() && m.hasBase64EncodedKey() ? m.getKeyBytes() : null, m.size());
          if (read % 10_000 == 0) {
            progress.update(read);
          }
        }
      } catch (PulsarClientException e) {
        throw translate(e, "read");
      } finally {
        // waited for, so the broker has dropped the reader's subscription when analyze exits
        try {
          reader.closeAsync().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          notes.add("a reader of partition " + p + " did not close cleanly: " + e.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      progress.update(read);
    }
    return new ReadResult(read, capped, stalled);
  }

  private <T> T get(CompletableFuture<T> future, String what) {
    try {
      return future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    } catch (java.util.concurrent.TimeoutException e) {
      future.cancel(true);
      throw unreachable();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyInput.InputException("interrupted");
    }
  }

  private KeyInput.InputException translate(Throwable c, String what) {
    if (c instanceof PulsarClientException.NotFoundException
        || c instanceof PulsarClientException.TopicDoesNotExistException) {
      return new KeyInput.InputException(describe() + ": no such topic");
    }
    if (c instanceof PulsarClientException.AuthorizationException) {
      return new KeyInput.InputException("not authorized to " + what + " " + describe() + ": "
          + c.getMessage() + " (the role needs the consume permission on the topic)");
    }
    if (c instanceof PulsarClientException.AuthenticationException) {
      return new KeyInput.InputException("authentication failed at " + serviceUrl + ": "
          + c.getMessage());
    }
    if (c instanceof PulsarClientException.TimeoutException
        || c instanceof java.util.concurrent.TimeoutException) {
      return unreachable();
    }
    if (c instanceof PulsarClientException.ConnectException || refused(c)) {
      return new KeyInput.InputException("cannot reach Pulsar at " + serviceUrl + ": connection"
          + " refused (is the broker up and --service-url right?)");
    }
    return new KeyInput.InputException("cannot " + what + " " + describe() + ": "
        + c.getClass().getSimpleName() + ": " + c.getMessage());
  }

  /** Whether a connection was refused somewhere down {@code c}'s causes (Netty wraps it). */
  private static boolean refused(Throwable c) {
    for (Throwable t = c; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.ConnectException
          || (t.getMessage() != null && t.getMessage().contains("Connection refused"))) {
        return true;
      }
    }
    return false;
  }

  private KeyInput.InputException unreachable() {
    return new KeyInput.InputException("cannot reach Pulsar at " + serviceUrl + " within "
        + LiveTopic.text(timeout) + " (is the broker up and --service-url right? raise --timeout"
        + " for a slow cluster)");
  }

  @Override
  public void close() {
    try {
      client.closeAsync().get(2, TimeUnit.SECONDS);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      try {
        client.shutdown();
      } catch (PulsarClientException ignored) {
        // nothing more to do
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // closing is best effort
    }
  }
}
