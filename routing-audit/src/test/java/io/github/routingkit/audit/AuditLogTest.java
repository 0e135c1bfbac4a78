package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AuditLogTest {
  static String nasty(Random random) {
    StringBuilder b = new StringBuilder();
    int n = random.nextInt(12);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(6)) {
        case 0 -> b.append((char) random.nextInt(0x20));
        case 1 -> b.append("\"\\/");
        case 2 -> b.appendCodePoint(0x1F600 + random.nextInt(50));
        case 3 -> b.append((char) (0xD800 + random.nextInt(0x800))); // lone surrogates
        case 4 -> b.append('\u2028');
        default -> b.append((char) ('a' + random.nextInt(26)));
      }
    }
    return b.toString();
  }

  @Test
  void everyRecordRoundTripsThroughItsLine() {
    for (long seed = 1; seed <= 2000; seed++) {
      Random random = new Random(seed);
      AuditRecord r = new AuditRecord(nasty(random), nasty(random), random.nextLong() >>> 1,
          random.nextLong(), random.nextBoolean() ? null : nasty(random), random.nextBoolean(),
          nasty(random), random.nextInt(1000) - 1, nasty(random), nasty(random),
          random.nextInt(5) - 1, random.nextBoolean() ? null : nasty(random), random.nextLong());
      String line = AuditLog.line(r);
      assertThat(line).as("seed %d", seed).doesNotContain("\n", "\r", "\u2028");
      assertThat(AuditLog.parse(line)).as("seed %d: %s", seed, line).isEqualTo(r);
    }
  }

  @Test
  void defaultsOfOptionalFields() {
    AuditRecord r = AuditLog.parse(
        " {\"k\":\"a\",\"p\":\"p\",\"s\":1,\"tp\":\"t\",\"pt\":-1,\"c\":\"c\",\"st\":\"Shared\","
            + "\"future\":[1]} ".replace("[1]", "1.5e3"));
    assertThat(r.keyed()).isTrue();
    assertThat(r.redeliveryCount()).isEqualTo(-1);
    assertThat(r.generation()).isNull();
    assertThat(r.position()).isNull();
  }

  @Test
  void hostileLinesAreClearErrors() {
    String ok = "\"k\":\"a\",\"p\":\"p\",\"s\":1,\"tp\":\"t\",\"pt\":0,\"c\":\"c\",\"st\":\"S\"";
    String[][] cases = {
        {"", "expected '{'"},
        {"[]", "expected '{'"},
        {"{" + ok + "} x", "text after"},
        {"{" + ok + ",\"k\":\"b\"}", "given twice"},
        {"{\"k\":\"a\"}", "missing field p"},
        {"{" + ok.replace("\"s\":1", "\"s\":-1") + "}", "must be >= 0"},
        {"{" + ok.replace("\"s\":1", "\"s\":1.5") + "}", "must be an integer"},
        {"{" + ok.replace("\"s\":1", "\"s\":99999999999999999999") + "}", "out of range"},
        {"{" + ok.replace("\"pt\":0", "\"pt\":-2") + "}", "partition"},
        {"{" + ok.replace("\"pt\":0", "\"pt\":4294967296") + "}", "partition"},
        {"{" + ok.replace("\"k\":\"a\"", "\"k\":1") + "}", "must be a string"},
        {"{" + ok + ",\"ky\":1}", "true or false"},
        {"{" + ok + ",\"rd\":-5}", "redelivery"},
        {"{\"k\":\"abc", "unterminated"},
        {"{" + ok.replace("\"a\"", "\"\\q\"") + "}", "bad escape"},
        {"{" + ok.replace("\"a\"", "\"\\u12\"") + "}", "escape"},
        {"{" + ok + ",\"x\":{}}", "only strings"},
        {"{" + ok.replace("\"a\"", "\"a\u0001\"") + "}", "control character"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> AuditLog.parse(c[0])).as(c[0])
          .isInstanceOf(AuditLogException.class).hasMessageContaining(c[1]);
    }
  }

  @Test
  void readerBoundsLinesAndSkipsOrFailsWithTheLineNumber() {
    String good = AuditLog.line(new AuditRecord("k", "p", 1, 0, null, true, "t", 0, "c", "S", 0,
        null, 0));
    String huge = "x".repeat(AuditLogReader.MAX_LINE_CHARS * 3);
    String log = good + "\n\n" + huge + "\r\nnot json\n" + good + "\r\n";
    try (AuditLogReader r = AuditLogReader.of("log", new ByteArrayInputStream(
        log.getBytes(StandardCharsets.UTF_8)), true)) {
      assertThat(r.next()).isNotNull();
      assertThat(r.next()).isNotNull();
      assertThat(r.next()).isNull();
      assertThat(r.skippedLines()).isEqualTo(2);
      assertThat(r.firstSkipped()).startsWith("log:3: line longer than");
    }
    try (AuditLogReader r = AuditLogReader.of("log", new ByteArrayInputStream(
        log.getBytes(StandardCharsets.UTF_8)), false)) {
      r.next();
      assertThatThrownBy(r::next).isInstanceOf(AuditLogException.class)
          .hasMessageStartingWith("log:3: line longer than");
    }
    byte[] binary = {'{', (byte) 0xff, (byte) 0xfe, '\n'};
    try (AuditLogReader r = AuditLogReader.of("bin", new ByteArrayInputStream(binary), false)) {
      assertThatThrownBy(r::next).isInstanceOf(AuditLogException.class)
          .hasMessageContaining("not UTF-8");
    }
    try (AuditLogReader r = AuditLogReader.of("bin", new ByteArrayInputStream(binary), true)) {
      assertThat(r.next()).isNull();
      assertThat(r.skippedLines()).isEqualTo(1);
    }
  }
}
