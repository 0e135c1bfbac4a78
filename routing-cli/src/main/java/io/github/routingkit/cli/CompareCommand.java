package io.github.routingkit.cli;

import io.github.routingkit.router.HashRouter;
import io.github.routingkit.hash.HashScheme;
import io.github.routingkit.KeylessPolicy;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code routing compare}: the partition each ecosystem client's default (or documented option)
 * would pick for one key: one row per {@link HashScheme}, with the scheme's native placement.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "The partition each client's hashing would pick for one key (one row per hash"
        + " scheme RoutingKit reproduces, with the scheme's native placement).")
final class CompareCommand implements Callable<Integer> {
  /** Which clients use a scheme, by enum constant name (a test checks every scheme is listed). */
  static final Map<String, String> CLIENTS = Map.ofEntries(
      Map.entry("KAFKA_MURMUR2", "Kafka Java client default; librdkafka murmur2 / murmur2_random;"
          + " KafkaJS 2.x default; kafka-go Murmur2Balancer"),
      Map.entry("PULSAR_JAVA_STRING", "Pulsar Java client default (JavaStringHash)"),
      Map.entry("PULSAR_MURMUR3", "Pulsar Murmur3_32Hash (Java, C++ / Python / Node.js and Go"
          + " clients agree)"),
      Map.entry("LIBRDKAFKA_CRC32", "librdkafka default consistent_random / consistent (CRC32);"
          + " confluent-kafka-go/-python default; kafka-go CRC32Balancer"),
      Map.entry("LIBRDKAFKA_FNV1A", "librdkafka fnv1a / fnv1a_random (agrees with Sarama's default)"),
      Map.entry("SARAMA_FNV1A", "Sarama (Go) default hash partitioner (FNV-1a); kafka-go Hash"),
      Map.entry("SARAMA_FNV1A_REFERENCE", "Sarama NewReferenceHashPartitioner (FNV-1a, masked);"
          + " kafka-go ReferenceHash"),
      Map.entry("PULSAR_GO_JAVA_STRING", "Pulsar Go client default (JavaStringHash over UTF-8 bytes)"),
      Map.entry("KAFKAJS_LEGACY", "KafkaJS 1.x default; 2.x LegacyPartitioner"),
      Map.entry("PULSAR_CPP_BOOST_PRE_1_81", "Pulsar C++ 3.0-3.4 / Python 3.0-3.5 / Node.js <= 1.10"
          + " default (BoostHash, Boost <= 1.80)"),
      Map.entry("PULSAR_CPP_BOOST_PRE_1_81_UNSIGNED_CHAR", "the same on Linux aarch64 (unsigned"
          + " char)"),
      Map.entry("PULSAR_CPP_BOOST_1_81", "Pulsar C++ client built with Boost 1.81 (BoostHash)"),
      Map.entry("PULSAR_CPP_BOOST_FROM_1_82", "Pulsar C++ 3.5+ / Python 3.6+ / Node.js 1.11+ default"
          + " (BoostHash, Boost >= 1.82)"),
      Map.entry("XXH3_64", "RoutingKit XXH3 (no client default)"));

  /** Client defaults that ignore keys: printed below the table, since no scheme agrees with them. */
  static final String KEYS_IGNORED = "kafka-go Writer default (no Balancer set: RoundRobin) ignores"
      + " keys: every message goes to the next partition, so this key lands on all of them in turn"
      + " (set Balancer: &kafka.Hash{} = sarama-fnv1a, kafka.Murmur2Balancer{} = kafka-murmur2)";

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--key", paramLabel = "KEY",
      description = "The key, as text (hashed as its UTF-8 bytes). Needs a UTF-8 locale for"
          + " non-ASCII keys; else use --key-hex or --key-file.")
  String key;

  @Option(names = "--key-hex", paramLabel = "HEX",
      description = "The key as the hex of its UTF-8 bytes (e.g. E69DB1E4BAAC for 東京), for"
          + " shells and locales that cannot pass it as text.")
  String keyHex;

  @Option(names = "--key-file", paramLabel = "FILE",
      description = "Read the key from FILE (UTF-8; one trailing newline is dropped).")
  java.nio.file.Path keyFile;

  @Option(names = "--partitions", paramLabel = "N", required = true,
      description = "Partition count.")
  int partitions;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    if (partitions < 1) {
      throw new ParameterException(cmd, "--partitions was " + partitions + ", must be at least 1");
    }
    int given = (key != null ? 1 : 0) + (keyHex != null ? 1 : 0) + (keyFile != null ? 1 : 0);
    if (given != 1) {
      throw new ParameterException(cmd, "give exactly one of --key, --key-hex, --key-file");
    }
    if (keyHex != null) {
      key = strictUtf8(parseHex(cmd, keyHex), "--key-hex " + keyHex);
    } else if (keyFile != null) {
      key = strictUtf8(OptionValues.keyFile(keyFile), "--key-file " + keyFile);
    }
    PrintWriter out = cmd.getOut();
    out.printf(Locale.ROOT, "key '%s' (%d UTF-8 bytes), %d partitions%n%n", key,
        key.getBytes(StandardCharsets.UTF_8).length, partitions);
    int width = "scheme".length();
    for (HashScheme s : HashScheme.values()) {
      width = Math.max(width, s.id().length());
    }
    String row = "%-" + width + "s %20s  %-13s %9s  %s%n";
    out.printf(Locale.ROOT, row, "scheme", "hash", "placement", "partition", "client default");
    for (HashScheme s : HashScheme.values()) {
      // the 64-bit scheme is placed on all 64 bits; show the hash the placement really consumes
      long hash = s == HashScheme.XXH3_64 ? s.hash64(key) : s.hash(key);
      int partition = HashRouter.of(s, KeylessPolicy.ROUND_ROBIN).partition(key, partitions);
      out.printf(Locale.ROOT, row, s.id(), hash, s.nativePlacement().id(), partition,
          CLIENTS.getOrDefault(s.name(), s.id()));
    }
    out.printf(Locale.ROOT, "%n%s%n", KEYS_IGNORED);
    out.flush();
    return 0;
  }

  private static byte[] parseHex(CommandLine cmd, String hex) {
    byte[] b = OptionValues.hexBytes(hex.replace(" ", ""));
    if (b == null) {
      throw new ParameterException(cmd, "--key-hex was '" + hex + "', must be an even number of"
          + " hex digits (the key's UTF-8 bytes)");
    }
    return b;
  }

  /** Decodes strictly: compare answers for text keys, so bytes that are not UTF-8 are refused. */
  private static String strictUtf8(byte[] bytes, String what) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new KeyInput.InputException(what + " is not valid UTF-8: compare hashes text keys as"
          + " their UTF-8 bytes (Pulsar's schemes hash the String), so it cannot answer for"
          + " these bytes");
    }
  }
}
