package io.github.routingkit.config;


import io.github.routingkit.ConfigErrorText;
import io.github.routingkit.KeylessPolicy;
import io.github.routingkit.Routers;
import io.github.routingkit.RoutingConfigException;
import io.github.routingkit.testing.TestSerialization;
import io.github.routingkit.hash.HashScheme;

import io.github.routingkit.property.Gen;
import io.github.routingkit.property.Property;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@link RoutingSpec}: the string form round-trips; every bad value and every unknown
 * {@code routing.*} key fails with a {@link RoutingConfigException} whose message names the
 * property, the value and the accepted values; keys outside {@code routing.} are ignored.
 */
class RoutingSpecProperties {
  private static final Set<String> SCHEME_IDS =
      Set.of("kafka-murmur2", "pulsar-java-string", "pulsar-murmur3");
  private static final Set<String> KEYLESS_IDS = Set.of("round-robin", "random");

  @Test
  void stringFormRoundTrips() {
    Property.check(1000, Gen.enums(HashScheme.class), Gen.enums(KeylessPolicy.class), (scheme, keyless) -> {
      RoutingSpec spec = RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless);
      assertThat(spec.scheme()).isEqualTo(scheme);
      assertThat(spec.keyless()).isEqualTo(keyless);
      assertThat(RoutingSpec.parse(spec.toString())).isEqualTo(spec).hasSameHashCodeAs(spec);
      assertThat(RoutingSpec.parse(spec.toString()).toString()).isEqualTo(spec.toString());
      assertThat(RoutingSpec.parse(spec.toMap())).isEqualTo(spec);
      Properties props = new Properties();
      props.putAll(spec.toMap());
      assertThat(RoutingSpec.parse(props)).isEqualTo(spec);
      assertThat(TestSerialization.roundTrip(spec)).isEqualTo(spec);
      assertThat(spec.toString()).contains("routing.scheme=" + scheme.id(), "routing.keyless=" + keyless.id());
    });
  }

  @Test
  void whitespaceAndOrderDoNotMatter() {
    Property.check(1000, Gen.enums(HashScheme.class), Gen.enums(KeylessPolicy.class), blanks(), blanks(), Gen.booleans(), (scheme, keyless, a, b, keylessFirst) -> {
      String s = a + RoutingSpec.SCHEME + b + "=" + a + scheme.id() + b;
      String k = b + RoutingSpec.KEYLESS + a + "=" + b + keyless.id() + a;
      String text = keylessFirst ? k + "," + s : s + ",  ," + k;
      assertThat(RoutingSpec.parse(text))
          .isEqualTo(RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless));
      assertThat(RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, a + scheme.id() + b)).scheme())
          .isEqualTo(scheme);
    });
  }

  @Test
  void defaultsAreKafkaMurmur2AndRoundRobin() {
    assertThat(RoutingSpec.parse(Map.of())).isEqualTo(RoutingSpec.defaults());
    assertThat(RoutingSpec.parse("")).isEqualTo(RoutingSpec.defaults());
    assertThat(RoutingSpec.parse(new Properties())).isEqualTo(RoutingSpec.defaults());
    assertThat(RoutingSpec.defaults().scheme()).isEqualTo(HashScheme.KAFKA_MURMUR2);
    assertThat(RoutingSpec.defaults().keyless()).isEqualTo(KeylessPolicy.ROUND_ROBIN);
    assertThat(RoutingSpec.defaults().keyRouter()).isEqualTo(Routers.kafkaDefault());
  }

  @Test
  void badSchemeNamesPropertyValueAndAcceptedValues() {
    Property.check(500, badValues(), value -> {
      Assumptions.assumeTrue(!SCHEME_IDS.contains(value.trim()));
      RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
          () -> RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, value)));
      assertNames(e, RoutingSpec.SCHEME, value, SCHEME_IDS);
    });
  }

  @Test
  void badKeylessNamesPropertyValueAndAcceptedValues() {
    Property.check(500, badValues(), value -> {
      Assumptions.assumeTrue(!KEYLESS_IDS.contains(value.trim()));
      RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
          () -> RoutingSpec.parse(Map.of(RoutingSpec.KEYLESS, value)));
      assertNames(e, RoutingSpec.KEYLESS, value, KEYLESS_IDS);
    });
  }

  @Test
  void unknownRoutingKeysNameTheKeyAndTheKnownKeys() {
    Property.check(300, suffixes(), badValues(), (suffix, value) -> {
      String key = RoutingSpec.PREFIX + suffix;
      Assumptions.assumeTrue(!RoutingSpec.knownProperties().contains(key));
      Map<String, Object> config = new HashMap<>();
      config.put("bootstrap.servers", "localhost:9092");
      config.put(key, value);
      RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
          () -> RoutingSpec.parse(config));
      String near = RoutingSpec.nearest(key, RoutingSpec.knownProperties());
      if (near == null) { // nothing close: the message lists every known key
        assertNames(e, key, value, RoutingSpec.knownProperties());
      } else { // a suggestion, and the docs instead of the whole list that would bury it
        assertNames(e, key, value, java.util.Set.of(near));
        assertThat(e.getMessage()).contains("did you mean " + near + "?",
            "docs/configuration.md").doesNotContain("known routing properties are");
      }
    });
  }

  @Test
  void nonRoutingKeysAreIgnored() {
    Property.check(300, foreignConfigs(), Gen.enums(HashScheme.class), Gen.enums(KeylessPolicy.class), (foreign, scheme, keyless) -> {
      Map<String, Object> config = new LinkedHashMap<>(foreign);
      config.put(RoutingSpec.SCHEME, scheme.id());
      config.put(RoutingSpec.KEYLESS, keyless.id());
      assertThat(RoutingSpec.parse(config))
          .isEqualTo(RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless));
      assertThat(RoutingSpec.parse(foreign)).isEqualTo(RoutingSpec.defaults());
    });
  }

  @Test
  void assignorKeysBelongToTheConsumerSideAndAreIgnored() {
    Map<String, Object> config = new HashMap<>();
    config.put("routing.assignor.weight", "3");
    config.put("routing.assignor.topic.weights", "orders:2");
    config.put(RoutingSpec.SCHEME, "pulsar-murmur3");
    assertThat(RoutingSpec.parse(config))
        .isEqualTo(RoutingSpec.defaults().withScheme(HashScheme.PULSAR_MURMUR3));
    // ...but a near miss outside that namespace is still an unknown key
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of("routing.assignorweight", "3")))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("routing.assignorweight");
  }

  @Test
  void nullValueAndWrongCaseAreBadValues() {
    Map<String, Object> config = new HashMap<>();
    config.put(RoutingSpec.SCHEME, null);
    RoutingConfigException e =
        catchThrowableOfType(RoutingConfigException.class, () -> RoutingSpec.parse(config));
    assertThat(e.getMessage()).contains(RoutingSpec.SCHEME, "null", "kafka-murmur2");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, "KAFKA-MURMUR2")))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("KAFKA-MURMUR2");
    assertThatThrownBy(() -> RoutingSpec.parse(Map.of(RoutingSpec.KEYLESS, "Random")))
        .isInstanceOf(RoutingConfigException.class).hasMessageContaining("Random");
  }

  @Test
  void badSpecStrings() {
    assertThatThrownBy(() -> RoutingSpec.parse("routing.scheme"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("routing.scheme").hasMessageContaining("key=value");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.scheme=kafka-murmur2, routing.scheme=pulsar-murmur3"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("routing.scheme").hasMessageContaining("pulsar-murmur3");
    assertThatThrownBy(() -> RoutingSpec.parse("scheme=kafka-murmur2"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("scheme").hasMessageContaining("routing.");
    assertThatThrownBy(() -> RoutingSpec.parse("routing.sheme=kafka-murmur2"))
        .isInstanceOf(RoutingConfigException.class)
        .hasMessageContaining("routing.sheme").hasMessageContaining("routing.scheme");
  }

  @Test
  void exceptionIsAnIllegalArgumentExceptionWithParts() {
    RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
        () -> RoutingSpec.parse(Map.of(RoutingSpec.KEYLESS, "uniform")));
    assertThat(e).isInstanceOf(IllegalArgumentException.class);
    assertThat(e.property()).isEqualTo(RoutingSpec.KEYLESS);
    assertThat(e.value()).isEqualTo("uniform");
    assertThat(e.rule()).contains("round-robin", "sticky", "random");
  }

  private static void assertNames(
      RoutingConfigException e, String property, String value, Set<String> accepted) {
    assertThat(e).as("a RoutingConfigException for %s=%s", property, value).isNotNull();
    assertThat(e.property()).isEqualTo(property);
    assertThat(e.value()).isEqualTo(value);
    // invisible characters are shown escaped (RoutingConfigException.render)
    assertThat(e.getMessage()).contains(ConfigErrorText.render(property))
        .contains(ConfigErrorText.render(value));
    for (String a : accepted) {
      assertThat(e.getMessage()).contains(a);
    }
  }
  Gen<String> badValues() {
    return Gen.oneOf(
        Gen.strings(0, 20),
        Gen.strings("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ- ", 0, 20),
        Gen.of("", " ", "murmur2", "kafka_murmur2", "KAFKA_MURMUR2", "Kafka-Murmur2",
            "pulsar-murmur3 x", "round_robin", "ROUND_ROBIN", "sticky-batch", "null", "0", "random,"));
  }
  Gen<String> suffixes() {
    return Gen.oneOf(
        Gen.strings(Gen.ALPHANUMERIC + ".-_", 0, 15),
        Gen.of("", "Scheme", "scheme ", "keyless.policy", "schemes", "placement"));
  }
  Gen<String> blanks() {
    return Gen.of("", " ", "  ", "\t", " \t ");
  }
  Gen<Map<String, Object>> foreignConfigs() {
    Gen<String> keys = Gen.oneOf(
        Gen.strings(0, 20)
            .filter(k -> !k.startsWith(RoutingSpec.PREFIX)),
        Gen.of("bootstrap.servers", "partitioner.class", "routing", "routingscheme",
            "Routing.scheme", "ROUTING.SCHEME", " routing.scheme", "x.routing.scheme"));
    Gen<Object> values = Gen.oneOf(
        Gen.strings(0, 10).map(s -> (Object) s),
        Gen.ints().map(i -> (Object) i),
        Gen.constant("nonsense"));
    return Gen.maps(keys, values, 8);
  }
}
