package io.github.routingkit.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.routingkit.KeyRouter;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.router.HashRouter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing locate}: where one key of a live topic is now: its partition under the routing
 * spec and under each client's default hash (one row per {@link HashScheme}, as {@code compare}
 * prints them, flagging each one that disagrees with the spec), the partition's leader, and who
 * reads it: on Kafka the consumer group member that owns the partition with its lag, on Pulsar
 * the consumer of each subscription that receives the key (Key_Shared by hash range, Failover by
 * the active consumer).
 */
@Command(name = "locate", mixinStandardHelpOptions = true,
    description = {"Where one key of a live topic is now: its partition under the spec and under"
        + " each client's default hash (disagreements flagged), the partition's leader, and who"
        + " reads it: the consumer group member that owns it and its lag (Kafka, classic and"
        + " consumer-protocol groups), or the Key_Shared / Failover consumer of each subscription"
        + " (Pulsar). Reads only: joins no group, commits nothing."})
final class LocateCommand implements Callable<Integer> {
  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  RouterOptions routerOptions;

  @Option(names = "--key", paramLabel = "KEY",
      description = "The key, as text (its UTF-8 bytes). Needs a UTF-8 locale for non-ASCII keys;"
          + " else use --key-hex or --key-file.")
  String key;

  @Option(names = "--key-hex", paramLabel = "HEX",
      description = "The key's bytes in hex: an even number of hex digits, an optional 0x prefix,"
          + " spaces and colons ignored (e.g. 0x00000001 or 'E6 9D B1'). Any bytes: binary Kafka"
          + " keys too.")
  String keyHex;

  @Option(names = "--key-file", paramLabel = "FILE",
      description = "Read the key's bytes from FILE (one trailing newline is dropped).")
  Path keyFile;

  @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT",
      description = "Kafka: the cluster of --topic (admin API only).")
  String bootstrapServer;

  @Option(names = "--command-config", paramLabel = "FILE",
      description = "Kafka: admin client properties (security.protocol, sasl.*, ssl.*).")
  Path commandConfig;

  @Option(names = "--admin-url", paramLabel = "URL",
      description = "Pulsar: the admin REST API (http://HOST:8080) of --topic's cluster.")
  String adminUrl;

  @Option(names = "--topic", paramLabel = "TOPIC", required = true,
      description = "The live topic.")
  String topic;

  @Option(names = "--group", paramLabel = "GROUP", split = ",",
      description = "Kafka: report these consumer groups (default: every consumer group with a"
          + " member assigned to the topic or an offset committed on the key's partition).")
  List<String> groups;

  @Option(names = "--subscription", paramLabel = "NAME", split = ",",
      description = "Pulsar: report these subscriptions (default: every subscription of the"
          + " key's partition).")
  List<String> subscriptions;

  @Option(names = "--agree-with", paramLabel = "SCHEME", split = ",",
      description = "Exit with code 1 unless these schemes (ids as --scheme takes them, with their"
          + " native placement; 'all' for every one) put the key on the spec's partition.")
  List<String> agreeWith;

  @Option(names = "--expect-partition", paramLabel = "N",
      description = "Exit with code 1 unless the spec puts the key on partition N.")
  Integer expectPartition;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s",
      description = "How long to wait for a broker before giving up with exit code 2 (default:"
          + " ${DEFAULT-VALUE}).")
  String timeout;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  String format;

  /** Opens the live topic; tests replace it. */
  interface Opener {
    LocateTarget open(LocateCommand c, Duration timeout, Properties clientConfig);
  }

  static volatile Opener opener = (c, t, config) -> c.bootstrapServer != null
      ? KafkaLocate.open(c.bootstrapServer, c.topic, c.groups, t, config)
      : PulsarLocate.open(c.adminUrl, c.topic, c.subscriptions, t);

  /** A scheme's answer for the key: null partition where the scheme cannot hash these bytes. */
  record SchemeRow(HashScheme scheme, Integer partition, String clients) {}

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    byte[] keyBytes = keyBytes(cmd);
    if ((bootstrapServer == null) == (adminUrl == null)) {
      throw new ParameterException(cmd, bootstrapServer == null
          ? "locate needs --bootstrap-server (Kafka) or --admin-url (Pulsar)"
          : "give either --bootstrap-server (Kafka) or --admin-url (Pulsar), not both");
    }
    if (topic.isBlank()) {
      throw new ParameterException(cmd, "--topic was blank");
    }
    boolean kafka = bootstrapServer != null;
    if (!kafka && (groups != null || commandConfig != null)) {
      throw new ParameterException(cmd, "--group and --command-config are for Kafka"
          + " (--bootstrap-server); Pulsar takes --subscription");
    }
    if (kafka && subscriptions != null) {
      throw new ParameterException(cmd, "--subscription is for Pulsar (--admin-url); Kafka takes"
          + " --group");
    }
    if (!format.equals("text") && !format.equals("json")) {
      throw new ParameterException(cmd, "--format was '" + format + "', must be text or json");
    }
    Set<HashScheme> agree = agreeSchemes(cmd);
    if (expectPartition != null && expectPartition < 0) {
      throw new ParameterException(cmd, "--expect-partition was " + expectPartition
          + ", must be at least 0");
    }
    Duration wait = AnalyzeCommand.duration(cmd, "--timeout", timeout, AnalyzeCommand.MAX_TIMEOUT);
    if (!kafka && !routerOptions.given()) {
      routerOptions.scheme = "pulsar-java-string"; // the Java client's default router hash
    }
    KeyRouter router = routerOptions.router(cmd);
    String routerName = routerOptions.describe(cmd);
    Set<String> hot = routerOptions.spec == null ? Set.of()
        : RoutingAgreement.hotKeys(RouterOptions.loadSpec(routerOptions.spec, "--spec"));
    Properties config = clientConfig();
    try (LocateTarget t = opener.open(this, wait, config)) {
      int n = t.partitions();
      int partition = router.partition(keyBytes, n);
      List<SchemeRow> rows = rows(keyBytes, n);
      LocateTarget.Fact leader = t.leader(partition);
      List<LocateTarget.Fact> readers = t.readers(partition, keyBytes);
      List<String> notes = new ArrayList<>(t.notes());
      String text = utf8(keyBytes);
      if (text != null && hot.contains(text)) {
        notes.add(0, "the spec lists this key as hot: its records spread over the hot-key"
            + " candidates by load, the partition above is the first of them only");
      }
      if (expectPartition != null && expectPartition >= n) {
        throw new KeyInput.InputException("--expect-partition was " + expectPartition + ", "
            + t.describe() + " has partitions 0 to " + (n - 1));
      }
      List<String> failed = new ArrayList<>();
      for (SchemeRow r : rows) {
        if (agree.contains(r.scheme()) && (r.partition() == null || r.partition() != partition)) {
          failed.add(r.scheme().id() + " puts it on "
              + (r.partition() == null ? "no partition (it hashes text)" : "partition "
              + r.partition()));
        }
      }
      PrintWriter out = cmd.getOut();
      if (format.equals("json")) {
        out.println(json(t, keyBytes, n, partition, routerName, rows, leader, readers, notes,
            failed));
      } else {
        out.print(text(t, keyBytes, n, partition, routerName, rows, leader, readers, notes));
      }
      out.flush();
      boolean expectFailed = expectPartition != null && expectPartition != partition;
      if (expectFailed) {
        cmd.getErr().println("routing: --expect-partition " + expectPartition + ": the spec ("
            + routerName + ") puts the key on partition " + partition);
        cmd.getErr().flush();
      }
      if (!failed.isEmpty()) {
        cmd.getErr().println("routing: --agree-with: the spec (" + routerName + ") puts the key on"
            + " partition " + partition + ", " + String.join(", ", failed));
        cmd.getErr().flush();
        return RoutingCli.EXIT_CHECK_FAILED;
      }
      return expectFailed ? RoutingCli.EXIT_CHECK_FAILED : 0;
    }
  }

  private Set<HashScheme> agreeSchemes(CommandLine cmd) {
    Set<HashScheme> out = new LinkedHashSet<>();
    if (agreeWith == null) {
      return out;
    }
    for (String id : agreeWith) {
      if (id.trim().equals("all")) {
        out.addAll(List.of(HashScheme.values()));
        continue;
      }
      try {
        out.add(HashScheme.fromId(id.trim()));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(cmd, "--agree-with " + e.getMessage());
      }
    }
    return out;
  }

  /** The key's bytes from exactly one of --key, --key-hex, --key-file. */
  byte[] keyBytes(CommandLine cmd) {
    int given = (key != null ? 1 : 0) + (keyHex != null ? 1 : 0) + (keyFile != null ? 1 : 0);
    if (given != 1) {
      throw new ParameterException(cmd, "give exactly one of --key, --key-hex, --key-file");
    }
    if (key != null) {
      return key.getBytes(StandardCharsets.UTF_8);
    }
    return keyHex != null ? parseHex(cmd, keyHex) : OptionValues.keyFile(keyFile);
  }

  /** {@code 0x} prefix optional, spaces and colons ignored, an even number of hex digits. */
  static byte[] parseHex(CommandLine cmd, String hex) {
    byte[] b = OptionValues.hexBytes(hex.replace(" ", "").replace(":", ""));
    if (b == null) {
      throw new ParameterException(cmd, "--key-hex was '" + hex + "', must be an even number of"
          + " hex digits (optional 0x prefix; spaces and colons are ignored)");
    }
    return b;
  }

  /** The key as text, or null if its bytes are not UTF-8. */
  static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** One row per scheme, with its native placement; text-only schemes skip non-UTF-8 keys. */
  static List<SchemeRow> rows(byte[] key, int n) {
    boolean text = utf8(key) != null;
    List<SchemeRow> rows = new ArrayList<>();
    for (HashScheme s : HashScheme.values()) {
      Integer p = !text && s == HashScheme.PULSAR_JAVA_STRING ? null
          : HashRouter.of(s, KeylessPolicy.ROUND_ROBIN).partition(key, n);
      rows.add(new SchemeRow(s, p, CompareCommand.CLIENTS.getOrDefault(s.name(), s.id())));
    }
    return rows;
  }

  /** The key for a terminal: its text (control characters as ?) or 0x and its hex. */
  static String shown(byte[] key) {
    String text = utf8(key);
    return text == null ? "0x" + java.util.HexFormat.of().formatHex(key)
        : "'" + RoutingAgreement.shown(text) + "'";
  }

  private static String text(LocateTarget t, byte[] key, int n, int partition, String routerName,
      List<SchemeRow> rows, LocateTarget.Fact leader, List<LocateTarget.Fact> readers,
      List<String> notes) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "key       %s (%d bytes)%n", shown(key), key.length));
    b.append(String.format(Locale.ROOT, "topic     %s, %d partition%s%n", t.describe(), n,
        n == 1 ? "" : "s"));
    b.append(String.format(Locale.ROOT, "partition %d under %s%n", partition, routerName));
    b.append(String.format(Locale.ROOT, "leader    %s%n%n", leader.text()));
    int width = "scheme".length();
    for (HashScheme s : HashScheme.values()) {
      width = Math.max(width, s.id().length());
    }
    String row = "%-" + width + "s %9s  %-8s %s%n";
    b.append(String.format(Locale.ROOT, row, "scheme", "partition", "", "client default"));
    int differ = 0;
    for (SchemeRow r : rows) {
      boolean same = r.partition() != null && r.partition() == partition;
      differ += same ? 0 : 1;
      b.append(String.format(Locale.ROOT, row, r.scheme().id(),
          r.partition() == null ? "-" : r.partition(), same ? "" : "DIFFERS", r.clients()));
    }
    b.append(String.format(Locale.ROOT, "%d of %d schemes put the key elsewhere than partition %d;"
        + " a producer on one of them writes it where its consumers do not look%n%n", differ,
        rows.size(), partition));
    if (readers.isEmpty()) {
      b.append("readers   none found on partition ").append(partition).append('\n');
    } else {
      b.append("readers of partition ").append(partition).append('\n');
      for (LocateTarget.Fact r : readers) {
        b.append("  ").append(r.text()).append('\n');
      }
    }
    for (String note : notes) {
      b.append("note: ").append(note).append('\n');
    }
    return b.toString();
  }

  private static String json(LocateTarget t, byte[] key, int n, int partition, String routerName,
      List<SchemeRow> rows, LocateTarget.Fact leader, List<LocateTarget.Fact> readers,
      List<String> notes, List<String> failed) {
    Map<String, Object> o = new LinkedHashMap<>();
    String text = utf8(key);
    o.put("key", text);
    o.put("keyHex", java.util.HexFormat.of().formatHex(key));
    o.put("topic", t.describe());
    o.put("partitions", n);
    o.put("router", routerName);
    o.put("partition", partition);
    o.put("leader", leader.json());
    List<Map<String, Object>> schemes = new ArrayList<>();
    for (SchemeRow r : rows) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("scheme", r.scheme().id());
      s.put("placement", r.scheme().nativePlacement().id());
      s.put("partition", r.partition());
      s.put("agrees", r.partition() != null && r.partition() == partition);
      s.put("clients", r.clients());
      schemes.add(s);
    }
    o.put("schemes", schemes);
    List<Map<String, Object>> rs = new ArrayList<>();
    readers.forEach(r -> rs.add(r.json()));
    o.put("readers", rs);
    o.put("notes", notes);
    o.put("agreeWithFailed", failed);
    try {
      return new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .writerWithDefaultPrettyPrinter().writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private Properties clientConfig() {
    Properties p = OptionValues.commandConfig(commandConfig);
    if (commandConfig != null) {
      if (p.containsKey("bootstrap.servers")) {
        throw new KeyInput.InputException("--command-config " + commandConfig
            + " sets bootstrap.servers, which locate takes from --bootstrap-server");
      }
    }
    return p;
  }
}
