package io.github.routingkit.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testing.SampleKeys;
import io.github.routingkit.Routers;
import io.github.routingkit.router.version.VersionedRouter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link MigrationPlan}: what a move between two routing generations costs, on the real sample. */
class MigrationPlanTest {

  @Test
  void migrationPlanOnTheRealSample() throws Exception {
    List<String> sample = new ArrayList<>(SampleKeys.npmNames());
    // a few messages per hot key: message fraction differs from key fraction
    List<String> messages = new ArrayList<>(sample);
    for (int i = 0; i < 50_000; i++) {
      messages.add(sample.get(i % 10));
    }
    VersionedRouter.Generation m12 = new VersionedRouter.Generation("m12", Routers.kafkaDefault(), 12);
    VersionedRouter.Generation m16 = new VersionedRouter.Generation("m16", Routers.kafkaDefault(), 16);
    VersionedRouter.Generation j12 = new VersionedRouter.Generation("j12", Routers.consistent(), 12);
    VersionedRouter.Generation j16 = new VersionedRouter.Generation("j16", Routers.consistent(), 16);
    MigrationPlan modulo = MigrationPlan.of(messages, m12, m16, 16);
    MigrationPlan jump = MigrationPlan.of(messages, j12, j16, 16);
    System.out.println(modulo);
    System.out.println(jump);
    assertThat(modulo.distinctKeys()).isEqualTo(200_000);
    assertThat(modulo.messages()).isEqualTo(250_000);
    assertThat(modulo.movedKeyFraction()).isBetween(0.73, 0.77);
    assertThat(jump.movedKeyFraction()).isBetween(0.24, 0.26);
    assertThat(jump.movedKeys()).hasSize((int) Math.round(jump.movedKeyFraction() * 200_000));
    for (String moved : jump.movedKeys().subList(0, 100)) {
      int[] both = jump.dualWrite(moved.getBytes(UTF_8));
      assertThat(both[0]).isNotEqualTo(both[1]);
      assertThat(both[1]).isBetween(12, 15);
    }
    // the message fraction weighs the ten repeated keys by their traffic
    long repeatedMoved = sample.subList(0, 10).stream().filter(jump.movedKeys()::contains).count();
    double expected = (jump.movedKeys().size() + repeatedMoved * 5000.0) / 250_000;
    assertThat(jump.movedMessageFraction()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9));

    VersionedRouter r = VersionedRouter.builder().generation("j12", Routers.consistent(), 12)
        .generation("j16", Routers.consistent(), 0).defaultVersion("j12").build();
    byte[] k = jump.movedKeys().get(0).getBytes(UTF_8);
    assertThat(r.partitionsByGeneration(k, 16).values()).containsExactly(
        jump.dualWrite(k)[0], jump.dualWrite(k)[1]);
  }
}
