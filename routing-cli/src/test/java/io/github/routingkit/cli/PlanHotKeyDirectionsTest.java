package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.cli.CliRun.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code routing plan} checks the hot key against each direction's own limit: its share of the
 * write peak against what a partition takes in, its share of the consume peak against what a
 * partition's consumer keeps up with. A key that fits one partition both ways never fails the gate,
 * whatever the larger peak and the smaller limit are.
 */
class PlanHotKeyDirectionsTest {

  /** 10,000 keys whose hottest, "hot", carries {@code hotPerTenThousand} of them. */
  private static Path keys(Path dir, int hotPerTenThousand) throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      lines.add(i < hotPerTenThousand ? "hot" : "order-" + i);
    }
    return Files.write(dir.resolve("keys-" + hotPerTenThousand + ".txt"), lines);
  }

  @Test
  void aHotKeyThatFitsOnePartitionBothWaysPasses(@TempDir Path dir) throws IOException {
    // 6.54 %: writes 1,962 msg/s (a partition takes 10,000 / 1.3 = 7,692) and is consumed at
    // 654 msg/s (a partition's consumer keeps up with 1,000 / 1.3 = 769)
    Result r = run("plan", "--peak-write", "30000", "--partition-write", "10000",
        "--peak-consume", "10000", "--partition-consume", "1000", "--keys",
        keys(dir, 654).toString());
    assertThat(r.out()).doesNotContain("no partition count fixes this");
    assertThat(r.code()).isZero();
  }

  @Test
  void aHotKeyTooFastForOneConsumerFailsOnTheConsumeSide(@TempDir Path dir) throws IOException {
    // 10 %: writes 3,000 msg/s (fits 7,692) but is consumed at 1,000 msg/s (more than 769)
    Result r = run("plan", "--peak-write", "30000", "--partition-write", "10000",
        "--peak-consume", "10000", "--partition-consume", "1000", "--keys",
        keys(dir, 1000).toString());
    assertThat(r.out()).contains("msg/s consume at peak").contains("no partition count fixes this");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
  }

  @Test
  void aHotKeyTooFastForOnePartitionFailsOnTheWriteSide(@TempDir Path dir) throws IOException {
    Result r = run("plan", "--peak-write", "30000", "--partition-write", "2000",
        "--peak-consume", "1000", "--partition-consume", "1000", "--keys",
        keys(dir, 1000).toString());
    assertThat(r.out()).contains("msg/s write at peak").contains("no partition count fixes this");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_CHECK_FAILED);
  }
}
