package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.cli.CliRun.Result;
import org.junit.jupiter.api.Test;

/**
 * A live Kafka analyze whose admin client cannot even be created (a bootstrap address without a
 * port, a host name that does not resolve) names the client's root cause in its one-line error
 * and exits 2; no broker is needed.
 */
class LiveAnalyzeKafkaConnectErrorTest {
  @Test
  void aBootstrapServerWithoutAPortNamesTheInvalidUrl() {
    Result r = CliRun.run("analyze", "--bootstrap-server", "localhost", "--topic", "orders",
        "--timeout", "3s");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("Failed to create new KafkaAdminClient")
        .contains("ConfigException: Invalid url in bootstrap.servers: localhost");
    assertOneLine(r);
  }

  @Test
  void anUnresolvableHostNamesTheUnresolvableUrls() {
    Result r = CliRun.run("analyze", "--bootstrap-server", "nosuchhost.invalid:9092", "--topic",
        "orders", "--timeout", "3s");
    assertThat(r.code()).as(r.err()).isEqualTo(RoutingCli.EXIT_USAGE);
    assertThat(r.err()).contains("ConfigException: No resolvable bootstrap urls given in"
        + " bootstrap.servers");
    assertOneLine(r);
  }

  private static void assertOneLine(Result r) {
    assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
    assertThat(r.err()).startsWith("routing: ").doesNotContain("\tat ");
  }
}
