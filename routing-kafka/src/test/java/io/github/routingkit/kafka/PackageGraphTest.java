package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.github.routingkit.testing.PackageGraph;
import io.github.routingkit.testing.SourceSize;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** routing-kafka's package graph: no cycles, no router type tested by an adapter; no long main file. */
class PackageGraphTest {
  private static final JavaClasses CLASSES = PackageGraph.mainClasses("io.github.routingkit.kafka");

  @Test
  void noPackageCycles() {
    PackageGraph.noPackageCycles("io.github.routingkit.kafka").check(CLASSES);
  }

  @Test
  void adaptersTestNoRouterType() {
    PackageGraph.adaptersTestNoRouterType("io.github.routingkit.kafka").check(CLASSES);
  }

  @Test
  void internalReachesIntoNoLayer() {
    PackageGraph.internalReachesIntoNoLayer().check(CLASSES);
  }

  @Test
  void noMainSourceOverTheLimit() {
    assertThat(SourceSize.sourcesLongerThan(Path.of("src/main/java"),
        SourceSize.MAX_MAIN_LINES)).isEmpty();
  }
}
