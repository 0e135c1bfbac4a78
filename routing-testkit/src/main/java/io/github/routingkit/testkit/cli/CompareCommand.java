package io.github.routingkit.testkit.cli;

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
  static final Map<String, String> CLIENTS = Map.of(
      "KAFKA_MURMUR2", "Kafka Java client default; librdkafka murmur2 / murmur2_random",
      "PULSAR_JAVA_STRING", "Pulsar Java client default (JavaStringHash)",
      "PULSAR_MURMUR3", "Pulsar Murmur3_32Hash (Java, C++ and Go clients agree)",
      "LIBRDKAFKA_CRC32", "librdkafka default consistent_random / consistent (CRC32)",
      "LIBRDKAFKA_FNV1A", "librdkafka fnv1a / fnv1a_random (agrees with Sarama's default)",
      "SARAMA_FNV1A", "Sarama (Go) default hash partitioner (FNV-1a)",
      "SARAMA_FNV1A_REFERENCE", "Sarama NewReferenceHashPartitioner (FNV-1a, masked)",
      "PULSAR_GO_JAVA_STRING", "Pulsar Go client default (JavaStringHash over UTF-8 bytes)",
      "KAFKAJS_LEGACY", "KafkaJS 1.x default; 2.x LegacyPartitioner",
      "XXH3_64", "RoutingKit XXH3 (no client default)");

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--key", paramLabel = "KEY", required = true,
      description = "The key, as text (hashed as its UTF-8 bytes).")
  String key;

  @Option(names = "--partitions", paramLabel = "N", required = true,
      description = "Partition count.")
  int partitions;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    if (partitions < 1) {
      throw new ParameterException(cmd, "--partitions was " + partitions + ", must be at least 1");
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
    out.flush();
    return 0;
  }
}
