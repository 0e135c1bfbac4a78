package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.routingkit.cli.CliRun.Result;
import io.github.routingkit.kafka.RoutingPartitioner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code routing analyze --keys FILE} routes a {@code 0x<hex>} line by the bytes it spells, as a
 * Kafka producer routes the record's key bytes: every per-partition count and every hot key's
 * partition equal what {@link RoutingPartitioner} gives the same bytes, raw and with
 * {@code --key-format confluent} (which then finds the header). Text lines, and lines that only
 * look like hex, are routed by their UTF-8 bytes. Fixed seed; 12 partitions.
 */
class AnalyzeBinaryKeyLinesTest {
  private static final int N = 12;
  private static final Node NODE = new Node(0, "localhost", 9092);

  @TempDir
  Path dir;

  /** The key bytes of each line, in file order, with the file's lines. */
  final List<byte[]> bytes = new ArrayList<>();
  final List<String> lines = new ArrayList<>();

  private void line(String text, byte[] keyBytes) {
    lines.add(text);
    bytes.add(keyBytes);
  }

  private void binary(byte[] keyBytes) {
    line("0x" + HexFormat.of().formatHex(keyBytes), keyBytes);
  }

  private Path keys() throws IOException {
    Random random = new Random(20_261_204L);
    for (int id = 1; id <= 3; id++) { // one value under three schema ids, Confluent wire format
      for (int i = 0; i < 400; i++) {
        byte[] value = ("customer-" + i).getBytes(StandardCharsets.UTF_8);
        binary(ByteBuffer.allocate(5 + value.length).put((byte) 0).putInt(id).put(value).array());
      }
    }
    for (int i = 0; i < 300; i++) { // binary keys without a header, some not UTF-8
      byte[] b = new byte[1 + random.nextInt(16)];
      random.nextBytes(b);
      b[0] = (byte) (b[0] | 1); // never a magic byte
      binary(b);
    }
    byte[] hot = {(byte) 0xff, 0x00, (byte) 0xfe, 0x42};
    for (int i = 0; i < 200; i++) {
      binary(hot); // the hottest key: its partition in the report is its bytes'
    }
    for (int i = 0; i < 300; i++) {
      String text = "order-" + i;
      line(text, text.getBytes(StandardCharsets.UTF_8));
    }
    for (String text : new String[] {"0x", "0xabc", "0xZZ", "0Xab", "0x12 "}) {
      line(text, text.getBytes(StandardCharsets.UTF_8)); // not a binary key: its text
    }
    return Files.write(dir.resolve("keys.txt"), lines, StandardCharsets.UTF_8);
  }

  private static Cluster cluster() {
    List<PartitionInfo> ps = new ArrayList<>();
    for (int p = 0; p < N; p++) {
      ps.add(new PartitionInfo("t", p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return new Cluster("c", List.of(NODE), ps, Set.of(), Set.of());
  }

  private long[] expected(Map<String, ?> config) {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(config);
    Cluster cluster = cluster();
    long[] counts = new long[N];
    for (byte[] b : bytes) {
      counts[partitioner.partition("t", null, b, null, null, cluster)]++;
    }
    return counts;
  }

  private static int partitionOf(Map<String, ?> config, byte[] key) {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    partitioner.configure(config);
    return partitioner.partition("t", null, key, null, null, cluster());
  }

  private static long[] counts(JsonNode json) {
    long[] c = new long[N];
    for (int p = 0; p < N; p++) {
      c[p] = json.get("counts").get(p).asLong();
    }
    return c;
  }

  @Test
  void binaryLinesAreRoutedByTheirBytesAsRoutingPartitionerRoutesThem() throws IOException {
    Path file = keys();
    ObjectMapper m = new ObjectMapper();

    Result raw = run("analyze", "--keys", file.toString(), "--partitions", String.valueOf(N),
        "--format", "json", "--top", "1");
    assertThat(raw.code()).as(raw.err()).isZero();
    JsonNode rawJson = m.readTree(raw.out());
    assertThat(counts(rawJson)).containsExactly(expected(Map.of()));
    JsonNode top = rawJson.get("topKeys").get(0);
    assertThat(top.get("key").asText()).isEqualTo("0xff00fe42");
    assertThat(top.get("partition").asInt())
        .isEqualTo(partitionOf(Map.of(), new byte[] {(byte) 0xff, 0x00, (byte) 0xfe, 0x42}));
    // 400 values under 3 ids, the whole key hashed: most values sit on several partitions
    assertThat(rawJson.get("schemaRegistry").get("valuesOnDifferentPartitions").asLong())
        .isGreaterThan(300);

    Map<String, String> confluent = Map.of("routing.key.format", "confluent");
    Result formatted = run("analyze", "--keys", file.toString(), "--partitions",
        String.valueOf(N), "--format", "json", "--key-format", "confluent");
    assertThat(formatted.code()).as(formatted.err()).isZero();
    JsonNode formattedJson = m.readTree(formatted.out());
    long[] withFormat = expected(confluent);
    assertThat(counts(formattedJson)).containsExactly(withFormat);
    assertThat(withFormat).isNotEqualTo(expected(Map.of())); // the key format moved the framed keys
    assertThat(formattedJson.get("schemaRegistry").get("valuesOnDifferentPartitions").asLong())
        .isZero();

    Path spec = Files.writeString(dir.resolve("spec.properties"), "routing.key.format=confluent\n");
    Result bySpec = run("analyze", "--keys", file.toString(), "--partitions", String.valueOf(N),
        "--format", "csv", "--spec", spec.toString());
    assertThat(bySpec.code()).as(bySpec.err()).isZero();
    long[] csv = bySpec.out().lines().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[1]))
        .toArray();
    assertThat(csv).containsExactly(withFormat);
  }
}
