package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.cli.CliRun.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code routing analyze} on keys written by a schema-registry serializer: 1,000 values, each
 * under schema ids 1 and 2 (Confluent wire format: 0x00, the 4-byte id, the value), as the
 * {@code 0x<hex>} lines a key file holds binary keys in. It counts the
 * keys with a header and the distinct ids, and how many values sit on different partitions under
 * the two ids: most of them when the whole key is hashed, none with {@code --key-format confluent}.
 */
class SchemaRegistryAnalyzeTest {
  @TempDir
  Path dir;

  Path keys() throws IOException {
    List<String> lines = new ArrayList<>();
    // schema ids 1 and 2: 0x00, then 00 00 00 0<id>
    for (int id = 1; id <= 2; id++) {
      for (int i = 0; i < 1000; i++) {
        byte[] value = ("customer-" + i).getBytes(StandardCharsets.UTF_8);
        lines.add("0x00" + "0000000" + id + java.util.HexFormat.of().formatHex(value));
      }
    }
    lines.add("plain-key");
    return Files.write(dir.resolve("keys.txt"), lines, StandardCharsets.UTF_8);
  }

  @Test
  void analyzeNoticesSchemaIdsInKeys() throws IOException {
    Path keys = keys();
    Result whole = run("analyze", "--keys", keys.toString(), "--partitions", "24");
    assertThat(whole.code()).as(whole.err()).isZero();
    assertThat(whole.out())
        .contains("schema-registry   2,000 of 2,001 keyed messages carry a confluent header;"
            + " 2 distinct schema ids: ")
        .contains("1,000 key values under several schema ids, ")
        .contains("routing.key.format=confluent hashes the value alone");
    long moved = Long.parseLong(whole.out().replaceAll("(?s).*ids, ([0-9,]+) of them on different"
        + " partitions.*", "$1").replace(",", ""));
    assertThat(moved).isGreaterThan(900); // ~23/24 of 1,000
    Result formatted = run("analyze", "--keys", keys.toString(), "--partitions", "24",
        "--key-format", "confluent");
    assertThat(formatted.out()).contains("1,000 key values under several schema ids, 0 of them"
        + " on different partitions").doesNotContain("hashes the value alone");
    Result json = run("analyze", "--keys", keys.toString(), "--partitions", "24", "--format", "json");
    assertThat(json.out()).contains("\"schemaRegistry\":{\"format\":\"confluent\",\"keyed\":2001,"
        + "\"withHeader\":2000,\"distinctSchemaIds\":2");
    Result plain = run("analyze", "--keys", Files.write(dir.resolve("plain.txt"),
        List.of("a", "b", "c")).toString(), "--partitions", "3");
    assertThat(plain.out()).doesNotContain("schema-registry");
    assertThat(run("analyze", "--keys", keys.toString(), "--partitions", "24", "--key-format",
        "avro").code()).isEqualTo(RoutingCli.EXIT_USAGE);
  }
}
