package io.github.routingkit.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.InstanceofCheck;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;

/**
 * The package-graph rules every RoutingKit module is held to (ArchUnit, on the compiled main
 * classes): no cycle between packages, each package its own slice (so {@code router} and
 * {@code router.segment} are two) except the root package's {@code Routers}, the one facade over
 * the layers (as Guava's {@code Hashing} is over its hash functions): the root's API types
 * ({@code KeyRouter}, {@code AbstractKeyRouter}, {@code KeylessPolicy}, ...) depend on no layer,
 * every layer builds on them, and nothing but users calls the facade; and no class in an {@code internal} package depending on a
 * routing layer ({@code hash}, {@code placement}, {@code router}, {@code config},
 * {@code assignment} or an adapter package): internal helpers serve the layers, never the other
 * way round.
 */
public final class PackageGraph {
  private PackageGraph() {}

  /** The main (non-test) classes under {@code rootPackage}. */
  public static JavaClasses mainClasses(String rootPackage) {
    return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(rootPackage);
  }

  /** The facade class that may use the layers from the root package. */
  static final String FACADE = "io.github.routingkit.Routers";

  /**
   * Each package under {@code rootPackage} (the root itself included) is one slice, the root's
   * {@code Routers} facade a slice of its own.
   */
  public static ArchRule noPackageCycles(String rootPackage) {
    return SlicesRuleDefinition.slices().assignedFrom(new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        String pkg = javaClass.getPackageName();
        if (javaClass.getName().equals(FACADE)
            || javaClass.getName().startsWith(FACADE + "$")) {
          return SliceIdentifier.of(FACADE + " (facade)");
        }
        return pkg.equals(rootPackage) || pkg.startsWith(rootPackage + ".")
            ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
      }

      @Override
      public String getDescription() {
        return "packages under " + rootPackage;
      }
    }).should().beFreeOfCycles();
  }

  /** No class in an {@code internal} package depends on a routing layer. */
  public static ArchRule internalReachesIntoNoLayer() {
    return noClasses().that().resideInAPackage("io.github.routingkit..internal..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "io.github.routingkit.hash..", "io.github.routingkit.placement..",
            "io.github.routingkit.router..", "io.github.routingkit.config..",
            "io.github.routingkit.assignment..", "io.github.routingkit.kafka..",
            "io.github.routingkit.pulsar..")
        .allowEmptyShould(true);
  }

  /**
   * No class under {@code adapterPackage} tests a router's type: no {@code instanceof} against
   * {@code KeyRouter}, {@code AbstractKeyRouter} or a class of a {@code router} package. An
   * adapter asks the spec's typed queries instead.
   */
  public static ArchRule adaptersTestNoRouterType(String adapterPackage) {
    return ArchRuleDefinition.classes().that().resideInAPackage(adapterPackage + "..")
        .should(new ArchCondition<JavaClass>("test no router's type with instanceof") {
          @Override
          public void check(JavaClass c, ConditionEvents events) {
            for (JavaCodeUnit u : c.getCodeUnits()) {
              for (InstanceofCheck check : u.getInstanceofChecks()) {
                String type = check.getRawType().getName();
                if (type.equals("io.github.routingkit.KeyRouter")
                    || type.equals("io.github.routingkit.AbstractKeyRouter")
                    || type.startsWith("io.github.routingkit.router.")) {
                  events.add(SimpleConditionEvent.violated(c, u.getFullName()
                      + " tests instanceof " + type + " " + check.getSourceCodeLocation()));
                }
              }
            }
          }
        });
  }
}
