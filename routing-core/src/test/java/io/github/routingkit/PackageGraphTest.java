package io.github.routingkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.github.routingkit.testing.PackageGraph;
import io.github.routingkit.testing.SourceSize;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** routing-core's package graph: no cycles, internal reaches into no layer; no long main file. */
class PackageGraphTest {
  private static final JavaClasses CORE = PackageGraph.mainClasses("io.github.routingkit");

  @Test
  void corePackagesHaveNoCycle() {
    assertThat(CORE.size()).as("imported main classes").isGreaterThan(100);
    PackageGraph.noPackageCycles("io.github.routingkit").check(CORE);
  }

  @Test
  void internalReachesIntoNoLayer() {
    PackageGraph.internalReachesIntoNoLayer().check(CORE);
  }

  @Test
  void noMainSourceOverTheLimit() {
    assertThat(SourceSize.sourcesLongerThan(Path.of("src/main/java"),
        SourceSize.MAX_MAIN_LINES)).isEmpty();
  }

  /** The size rule can fail: at a limit of 100 lines, RoutingSpec is over it. */
  @Test
  void aLongSourceIsCaught() {
    assertThat(SourceSize.sourcesLongerThan(Path.of("src/main/java"), 100))
        .anyMatch(line -> line.contains("RoutingSpec.java: "));
  }

  /** The rule can fail: two test classes that use each other across packages form a cycle. */
  @Test
  void aCycleIsCaught() {
    JavaClasses cyclic = new ClassFileImporter().importClasses(
        io.github.routingkit.testing.cycle.a.A.class, io.github.routingkit.testing.cycle.b.B.class);
    assertThatThrownBy(() -> PackageGraph.noPackageCycles("io.github.routingkit.testing.cycle")
        .check(cyclic)).isInstanceOf(AssertionError.class).hasMessageContaining("Cycle");
  }

  /** The adapter rule can fail: a class that tests instanceof HashRouter breaks it. */
  @Test
  void aRouterTypeTestIsCaught() {
    JavaClasses bad = new ClassFileImporter().importClasses(
        io.github.routingkit.testing.badadapter.TypeTestingAdapter.class);
    assertThatThrownBy(() -> PackageGraph.adaptersTestNoRouterType(
        "io.github.routingkit.testing.badadapter").check(bad))
        .isInstanceOf(AssertionError.class).hasMessageContaining("instanceof")
        .hasMessageContaining("HashRouter");
  }
}
