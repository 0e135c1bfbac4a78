package io.github.routingkit.kafka;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.github.routingkit.testing.PackageGraph;
import org.junit.jupiter.api.Test;

/** routing-kafka's package graph: no cycles, no router type tested by an adapter. */
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
}
