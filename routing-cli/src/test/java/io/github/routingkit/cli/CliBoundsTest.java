package io.github.routingkit.cli;

import static io.github.routingkit.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.cli.CliRun.Result;
import org.junit.jupiter.api.Test;

/**
 * Options and commands a user can get wrong are usage errors (exit 2) with one line that names the
 * option, the value and the rule — never an internal error, and never exit 0.
 */
class CliBoundsTest {

  @Test
  void aHugeSinceIsAUsageErrorNotAnOverflow() {
    // parsed before any connection: no broker needed
    Result r = run("analyze", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--since",
        "99999999999999d");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("--since was '99999999999999d', must be at most 36525d")
        .doesNotContain("internal error").doesNotContain("overflow");
  }

  @Test
  void aHugeTimeoutIsAUsageErrorNotAnOverflow() {
    Result r = run("analyze", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--timeout",
        "99999999999999d");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("--timeout was '99999999999999d', must be at most 365d");
  }

  @Test
  void anUnknownCommandWithHelpIsAUsageError() {
    Result r = run("frobnicate", "--help");
    assertThat(r.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("unknown command 'frobnicate'").contains("analyze");
    assertThat(r.out()).doesNotContain("Usage:");
    Result typo = run("analyse", "--help");
    assertThat(typo.code()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(typo.err()).contains("did you mean analyze?");
    assertThat(run("analyze", "--help").code()).isZero();
    assertThat(run("--help").code()).isZero();
  }

  @Test
  void kafkaSampleQuotasAddUpToTheSampleEvenBelowThePartitionCount() {
    // --sample 1 or 2 on a 3-partition topic read nothing when each partition took floor(share)
    assertThat(KafkaTopic.quotas(new long[] {100, 100, 100}, 300, 1)).containsExactly(1, 0, 0);
    assertThat(KafkaTopic.quotas(new long[] {100, 100, 100}, 300, 2)).containsExactly(1, 1, 0);
    assertThat(KafkaTopic.quotas(new long[] {10, 290, 0}, 300, 30)).containsExactly(1, 29, 0);
    assertThat(KafkaTopic.quotas(new long[] {5, 1, 0}, 6, 100)).containsExactly(5, 1, 0);
    long[] q = KafkaTopic.quotas(new long[] {7, 0, 3, 1000}, 1010, 11);
    assertThat(q[0] + q[1] + q[2] + q[3]).isEqualTo(11);
    assertThat(q[1]).isZero();
  }
}
