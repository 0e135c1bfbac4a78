package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression tests of the audit's hardening: producer restarts with a fixed id, one line bound
 * for writer and reader, exact line numbers, damaged gzip, strict digits, printable evidence.
 */
class AuditHardeningTest {
  @TempDir
  Path dir;

  static ConsumerRecord<String, String> received(ProducerRecord<String, String> sent, long offset) {
    ConsumerRecord<String, String> r = new ConsumerRecord<>(sent.topic(), 0, offset, sent.key(),
        sent.value());
    sent.headers().forEach(h -> r.headers().add(h));
    return r;
  }

  static AuditRecord rec(String key, long seq) {
    return new AuditRecord(key, "p1", seq, 0, null, true, "orders", 0, "c", "Key_Shared", 0,
        null, seq);
  }

  /** The example's fixed id: a restart numbers keys from 1 again, which is no reorder. */
  @Test
  void aRestartedProducerWithAFixedIdIsAnotherInstanceNotARetry() {
    List<AuditRecord> log = new ArrayList<>();
    long offset = 0;
    for (int instance = 0; instance < 2; instance++) {
      KafkaAuditProducerInterceptor<String, String> producer =
          new KafkaAuditProducerInterceptor<>();
      producer.configure(Map.of("routingkit.audit.producer.id", "checkout-7"));
      for (int i = 0; i < 5; i++) {
        for (String key : List.of("order-1", "order-2")) {
          ProducerRecord<String, String> sent = producer.onSend(
              new ProducerRecord<>("orders", key, "v"));
          log.add(KafkaAuditConsumerInterceptor.toAuditRecord(received(sent, offset++),
              "worker-3", "kafka-group", offset));
        }
      }
      producer.close();
    }
    AuditReport report = OrderingAudit.of(log);
    assertThat(report.pairs()).as(report.toString()).isZero();
    assertThat(report.duplicates()).isZero();
    assertThat(report.keys()).isEqualTo(4); // two keys of two instances
    assertThat(log).extracting(AuditRecord::producer).containsOnly("checkout-7");
    assertThat(log.get(0).producerEpoch()).isNotEqualTo(log.get(19).producerEpoch());
  }

  /** Logs and stamps without an epoch are read as one stream per producer id. */
  @Test
  void oldLogLinesAndOldStampsWithoutAnEpochAreStillRead() {
    String old = "{\"k\":\"order-1\",\"p\":\"checkout-7\",\"s\":%d,\"t\":0,\"ky\":true,"
        + "\"tp\":\"orders\",\"pt\":3,\"c\":\"worker-3\",\"st\":\"kafka-group\",\"rd\":-1,"
        + "\"o\":\"%d\",\"ot\":%d}";
    List<AuditRecord> log = new ArrayList<>();
    long offset = 0;
    for (long s : new long[] {1, 2, 5, 3}) {
      offset++;
      AuditRecord r = AuditLog.parse(String.format(old, s, offset, offset));
      assertThat(r.producerEpoch()).isNull();
      log.add(r);
    }
    AuditReport report = OrderingAudit.of(log);
    assertThat(report.pairs()).isEqualTo(1); // 5 then 3 in one old stream: still found
    assertThat(report.findings().get(0).cause()).isEqualTo(AuditCause.PRODUCER_RETRY);
    assertThat(AuditLog.parse(AuditLog.line(log.get(0)))).isEqualTo(log.get(0));

    AuditStamp.Stamp oldStamp = AuditStamp.decode("7,1764583200000,k,v2,checkout-7");
    assertThat(oldStamp.producer()).isEqualTo("checkout-7");
    assertThat(oldStamp.epoch()).isNull();
    assertThat(oldStamp.generation()).isEqualTo("v2");
    // an old id that only looks like an epoch prefix is read the same way every time
    AuditStamp.Stamp odd = AuditStamp.decode("7,1,k,,~beef,x");
    assertThat(odd.producer() + "/" + odd.epoch()).isEqualTo("x/beef");
    assertThat(AuditStamp.decode("7,1,k,,~notHex,x").producer()).isEqualTo("~notHex,x");
    AuditRecord withEpoch = new AuditRecord("k", "p", "00ab", 1, 0, null, true, "t", 0, "c", "S",
        0, null, 0);
    assertThat(AuditLog.line(withEpoch)).contains("\"pe\":\"00ab\"");
    assertThat(AuditLog.parse(AuditLog.line(withEpoch))).isEqualTo(withEpoch);
  }

  /** A 100 KB key (Kafka allows keys up to max.message.bytes) makes a line the reader takes. */
  @Test
  void longKeysAreShortenedSoTheWriterNeverWritesALineTheReaderRejects() throws IOException {
    String base = "k".repeat(100_000);
    KafkaAuditProducerInterceptor<String, String> producer = new KafkaAuditProducerInterceptor<>();
    producer.configure(Map.of("routingkit.audit.producer.id", "p"));
    Path file = dir.resolve("long.jsonl");
    try (JsonLinesAuditRecorder out = new JsonLinesAuditRecorder(file)) {
      long offset = 0;
      for (String key : List.of(base + "a", base + "b", base + "a")) {
        ProducerRecord<String, String> sent = producer.onSend(new ProducerRecord<>("t", key, "v"));
        out.record(KafkaAuditConsumerInterceptor.toAuditRecord(received(sent, offset++), "c",
            "kafka-group", offset));
      }
    }
    List<AuditRecord> read = new ArrayList<>();
    try (AuditLogReader reader = AuditLogReader.open(file, false)) {
      for (AuditRecord r = reader.next(); r != null; r = reader.next()) {
        read.add(r);
      }
    }
    assertThat(read).hasSize(3);
    assertThat(read.get(0).key()).hasSizeLessThan(300).startsWith("kkkk")
        .contains("...[100001 chars, sha-256 ");
    assertThat(read.get(0).key()).isNotEqualTo(read.get(1).key()).isEqualTo(read.get(2).key());
    AuditReport report = OrderingAudit.of(read);
    assertThat(report.keys()).isEqualTo(2);
    assertThat(report.pairs()).isZero();
    assertThat(AuditRecord.shorten(read.get(0).key())).isEqualTo(read.get(0).key());
  }

  /** The worst a record can hold (every text field at the bound, all escaped) still fits. */
  @Test
  void theLongestPossibleLineFitsTheReadersBound() {
    String worst = "\u0001".repeat(AuditRecord.MAX_FIELD_CHARS);
    AuditRecord r = new AuditRecord(worst, worst, worst, Long.MAX_VALUE, Long.MIN_VALUE, worst,
        false, worst, Integer.MAX_VALUE, worst, worst, Integer.MAX_VALUE, worst, Long.MIN_VALUE);
    String line = AuditLog.line(r);
    assertThat(line.length()).isGreaterThan(40_000).isLessThanOrEqualTo(
        AuditLogReader.MAX_LINE_CHARS);
    assertThat(AuditLog.parse(line)).isEqualTo(r);
    String longer = "x".repeat(AuditRecord.MAX_FIELD_CHARS + 1);
    assertThat(new AuditRecord(longer, "p", 1, 0, null, true, "t", 0, "c", "S", 0, null, 0).key())
        .hasSizeLessThan(300);
    // a surrogate pair is never cut in half
    String pairs = "\uD83D\uDE00".repeat(AuditRecord.MAX_FIELD_CHARS);
    String cut = AuditRecord.shorten(pairs);
    assertThat(Character.isHighSurrogate(cut.charAt(cut.indexOf("...[") - 1))).isFalse();
  }

  /** Bad UTF-8 on line 1001 is reported as line 1001 (the decoder reads ahead of the lines). */
  @Test
  void badUtf8IsReportedWithItsOwnLineNumber() throws IOException {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    for (int i = 1; i <= 1000; i++) {
      log.write((AuditLog.line(rec("key-" + i, i)) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    log.write(new byte[] {'{', (byte) 0xc3, 0x28, '}', '\n'});
    log.write((AuditLog.line(rec("last", 1)) + "\n").getBytes(StandardCharsets.UTF_8));
    try (AuditLogReader r = AuditLogReader.of("log", new ByteArrayInputStream(log.toByteArray()),
        false)) {
      for (int i = 0; i < 1000; i++) {
        assertThat(r.next()).isNotNull();
      }
      assertThatThrownBy(r::next).isInstanceOf(AuditLogException.class)
          .hasMessageStartingWith("log:1001: not UTF-8");
    }
    try (AuditLogReader r = AuditLogReader.of("log", new ByteArrayInputStream(log.toByteArray()),
        true)) {
      int n = 0;
      while (r.next() != null) {
        n++;
      }
      assertThat(n).isEqualTo(1001); // line 1001 is bad JSON after U+FFFD: skipped, counted
      assertThat(r.skippedLines()).isEqualTo(1);
      assertThat(r.firstSkipped()).startsWith("log:1001: ");
    }
  }

  /** A .gz cut short: the records before the damage are audited when skipping. */
  @Test
  void aTruncatedGzipKeepsTheRecordsBeforeTheDamage() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      for (int i = 1; i <= 20_000; i++) {
        gz.write((AuditLog.line(rec("key-" + (i % 50), i)) + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
    }
    byte[] all = bytes.toByteArray();
    Path cut = Files.write(dir.resolve("cut.jsonl.gz"), Arrays.copyOf(all, all.length / 2));
    OrderingAudit audit = OrderingAudit.builder().build();
    AuditReport report = audit.auditFiles(List.of(cut), true, n -> { }, 1_000_000);
    assertThat(report.records()).isBetween(1_000L, 19_999L);
    assertThat(report.readErrors()).hasSize(1);
    assertThat(report.readErrors().get(0)).startsWith(cut + ": read error after line "
        + report.records() + " (").endsWith("the rest of the file is not read");
    assertThat(report.toText(0)).contains("verdict: per-key order kept (on the records read: 1"
        + " log(s) cut short by a read error)");
    assertThatThrownBy(() -> OrderingAudit.builder().build().auditFiles(List.of(cut), false,
        n -> { }, 1_000_000)).isInstanceOf(AuditLogException.class)
        .hasMessageContaining("read error after line " + report.records())
        .hasMessageContaining("--skip-bad-lines audits the " + report.records() + " lines");
  }

  /** '+6' and other scripts' digits are not numbers in a stamp or a position. */
  @Test
  void stampsAndPositionsTakeOnlyAsciiDigits() {
    assertThat(AuditStamp.decode("6,1,k,,p")).isNotNull();
    for (String bad : new String[] {"+6,1,k,,p", "6,+1,k,,p", "\u0666,1,k,,p", "6,\u0661,k,,p",
        "\uff16,1,k,,p", "6,-,k,,p", "-0,1,k,,p"}) {
      assertThat(AuditStamp.decode(bad)).as(bad).isNull();
    }
    assertThat(AuditStamp.decode("6,-5,k,,p").producedAtMillis()).isEqualTo(-5);
    assertThat(KeyStreamState.comparePositions("+9", "3")).isZero();
    assertThat(KeyStreamState.comparePositions("\u0669", "3")).isZero();
    assertThat(KeyStreamState.comparePositions("1:\u0669:0", "1:3:0")).isZero();
    assertThat(KeyStreamState.comparePositions("9", "3")).isPositive();
  }

  /** Topic, consumer, subscription and generation come from the log: no terminal escapes. */
  @Test
  void everyTextFieldInTheEvidenceIsPrintable() {
    String esc = "\u001b]0;owned\u0007\u009b31m\u202e";
    AuditRecord later = new AuditRecord(esc, esc, 2, 0, esc, true, esc, 0, esc + "a", esc, 0,
        null, 0);
    AuditRecord earlier = new AuditRecord(esc, esc, 1, 0, esc, true, esc, 0, esc + "b", esc, 0,
        null, 1);
    AuditReport report = OrderingAudit.of(List.of(later, earlier));
    String text = report.toText(5);
    assertThat(report.pairs()).isEqualTo(1);
    for (char c : new char[] {'\u001b', '\u0007', '\u009b', '\u202e'}) {
      assertThat(text.indexOf(c)).as("U+%04X", (int) c).isNegative();
    }
    assertThat(text).contains("topic ?]0;owned??31m?", "consumer ?]0;owned??31m?a");
    // parse errors quote the log too
    assertThatThrownBy(() -> AuditLogReader.of("x", new ByteArrayInputStream(
        ("{\"k\u001b[2J\":1}\n").getBytes(StandardCharsets.UTF_8)), false).next())
        .isInstanceOf(AuditLogException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u001b"));
  }
}
