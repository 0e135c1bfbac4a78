package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AuditStampTest {
  @Test
  void stringHashEqualsTheHashOfItsUtf8Bytes() {
    for (long seed = 1; seed <= 5000; seed++) {
      String s = AuditLogTest.nasty(new Random(seed));
      assertThat(AuditStamp.hash(s)).as("seed %d", seed)
          .isEqualTo(AuditStamp.hash(s.getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(AuditStamp.hash((String) null)).isZero();
  }

  @Test
  void stampsRoundTripAndGarbageIsNoStamp() {
    for (long seed = 1; seed <= 2000; seed++) {
      Random random = new Random(seed);
      long seq = (random.nextLong() >>> 1) >>> random.nextInt(63);
      long ts = random.nextLong() >> random.nextInt(64);
      String producer = AuditLogTest.nasty(random) + ",x";
      String gen = random.nextBoolean() ? null : "v" + random.nextInt(9);
      boolean keyed = random.nextBoolean();
      byte[] v = AuditStamp.encode(seq, ts, keyed, gen, producer.getBytes(StandardCharsets.UTF_8));
      AuditStamp.Stamp s = AuditStamp.decode(v);
      assertThat(s).as("seed %d", seed).isEqualTo(new AuditStamp.Stamp(seq, ts, keyed, gen,
          new String(producer.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8), null));
      String epoch = AuditStamp.newEpoch();
      AuditStamp.Stamp withEpoch = AuditStamp.decode(AuditStamp.encode(seq, ts, keyed, gen,
          AuditStamp.producerField(producer, epoch)));
      assertThat(withEpoch.epoch()).as("seed %d", seed).isEqualTo(epoch);
      assertThat(withEpoch.producer()).as("seed %d", seed).isEqualTo(s.producer());
    }
    assertThat(AuditStamp.decode(AuditStamp.encode(1, 2, true, "a,b", new byte[] {'p'})).generation())
        .isNull();
    for (String garbage : new String[] {"", "1,2,k,", "x,2,k,,p", "1,2,z,,p", "-1,2,k,,p",
        "1,2,kk,,p", "1,,k,,p"}) {
      assertThat(AuditStamp.decode(garbage)).as(garbage).isNull();
    }
    assertThat(AuditStamp.decode((byte[]) null)).isNull();
  }

  @Test
  void sequencesOfOneKeyIncreaseAndKeyTextIsStable() {
    AuditStamp.Sequencer s = new AuditStamp.Sequencer();
    long last = 0;
    for (int i = 0; i < 100; i++) {
      s.next(AuditStamp.hash("other-" + i));
      long next = s.next(AuditStamp.hash("k"));
      assertThat(next).isGreaterThan(last);
      last = next;
    }
    assertThat(AuditStamp.keyText(new byte[] {'a', 'b'})).isEqualTo("ab");
    assertThat(AuditStamp.keyText(new byte[] {(byte) 0xff})).isEqualTo("base64:/w==");
    assertThat(AuditStamp.keyText(42L)).isEqualTo("42");
    assertThat(AuditStamp.hashKey("ab")).isEqualTo(AuditStamp.hashKey(new byte[] {'a', 'b'}));
  }
}
