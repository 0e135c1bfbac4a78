package io.github.routingkit;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.hash.HashScheme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link RoutingSpec}: the string form round-trips; every bad value and every unknown
 * {@code routing.*} key fails with a {@link RoutingConfigException} whose message names the
 * property, the value and the accepted values; keys outside {@code routing.} are ignored.
 */
class RoutingSpecProperties {
  private static final Set<String> SCHEME_IDS =
      Set.of("kafka-murmur2", "pulsar-java-string", "pulsar-murmur3");
  private static final Set<String> KEYLESS_IDS = Set.of("round-robin", "random");

  @Property
  void stringFormRoundTrips(@ForAll HashScheme scheme, @ForAll KeylessPolicy keyless) throws Exception {
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
  }

  @Property
  void whitespaceAndOrderDoNotMatter(
      @ForAll HashScheme scheme, @ForAll KeylessPolicy keyless,
      @ForAll("blanks") String a, @ForAll("blanks") String b, @ForAll boolean keylessFirst) {
    String s = a + RoutingSpec.SCHEME + b + "=" + a + scheme.id() + b;
    String k = b + RoutingSpec.KEYLESS + a + "=" + b + keyless.id() + a;
    String text = keylessFirst ? k + "," + s : s + ",  ," + k;
    assertThat(RoutingSpec.parse(text))
        .isEqualTo(RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless));
    assertThat(RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, a + scheme.id() + b)).scheme())
        .isEqualTo(scheme);
  }

  @Example
  void defaultsAreKafkaMurmur2AndRoundRobin() {
    assertThat(RoutingSpec.parse(Map.of())).isEqualTo(RoutingSpec.defaults());
    assertThat(RoutingSpec.parse("")).isEqualTo(RoutingSpec.defaults());
    assertThat(RoutingSpec.parse(new Properties())).isEqualTo(RoutingSpec.defaults());
    assertThat(RoutingSpec.defaults().scheme()).isEqualTo(HashScheme.KAFKA_MURMUR2);
    assertThat(RoutingSpec.defaults().keyless()).isEqualTo(KeylessPolicy.ROUND_ROBIN);
    assertThat(RoutingSpec.defaults().keyRouter()).isEqualTo(Routers.kafkaDefault());
  }

  @Property(tries = 500)
  void badSchemeNamesPropertyValueAndAcceptedValues(@ForAll("badValues") String value) {
    Assume.that(!SCHEME_IDS.contains(value.trim()));
    RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
        () -> RoutingSpec.parse(Map.of(RoutingSpec.SCHEME, value)));
    assertNames(e, RoutingSpec.SCHEME, value, SCHEME_IDS);
  }

  @Property(tries = 500)
  void badKeylessNamesPropertyValueAndAcceptedValues(@ForAll("badValues") String value) {
    Assume.that(!KEYLESS_IDS.contains(value.trim()));
    RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
        () -> RoutingSpec.parse(Map.of(RoutingSpec.KEYLESS, value)));
    assertNames(e, RoutingSpec.KEYLESS, value, KEYLESS_IDS);
  }

  @Property(tries = 300)
  void unknownRoutingKeysNameTheKeyAndTheKnownKeys(
      @ForAll("suffixes") String suffix, @ForAll("badValues") String value) {
    String key = RoutingSpec.PREFIX + suffix;
    Assume.that(!RoutingSpec.knownProperties().contains(key));
    Map<String, Object> config = new HashMap<>();
    config.put("bootstrap.servers", "localhost:9092");
    config.put(key, value);
    RoutingConfigException e = catchThrowableOfType(RoutingConfigException.class,
        () -> RoutingSpec.parse(config));
    assertNames(e, key, value, RoutingSpec.knownProperties());
  }

  @Property(tries = 300)
  void nonRoutingKeysAreIgnored(
      @ForAll("foreignConfigs") Map<String, Object> foreign,
      @ForAll HashScheme scheme, @ForAll KeylessPolicy keyless) {
    Map<String, Object> config = new LinkedHashMap<>(foreign);
    config.put(RoutingSpec.SCHEME, scheme.id());
    config.put(RoutingSpec.KEYLESS, keyless.id());
    assertThat(RoutingSpec.parse(config))
        .isEqualTo(RoutingSpec.defaults().withScheme(scheme).withKeyless(keyless));
    assertThat(RoutingSpec.parse(foreign)).isEqualTo(RoutingSpec.defaults());
  }

  @Example
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

  @Example
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

  @Example
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

  @Example
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
    assertThat(e.getMessage()).contains(RoutingConfigException.render(property))
        .contains(RoutingConfigException.render(value));
    for (String a : accepted) {
      assertThat(e.getMessage()).contains(a);
    }
  }

  @Provide
  Arbitrary<String> badValues() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(20),
        Arbitraries.strings().alpha().withChars('-', ' ').ofMaxLength(20),
        Arbitraries.of("", " ", "murmur2", "kafka_murmur2", "KAFKA_MURMUR2", "Kafka-Murmur2",
            "pulsar-murmur3 x", "round_robin", "ROUND_ROBIN", "sticky-batch", "null", "0", "random,"));
  }

  @Provide
  Arbitrary<String> suffixes() {
    return Arbitraries.oneOf(
        Arbitraries.strings().alpha().numeric().withChars('.', '-', '_').ofMaxLength(15),
        Arbitraries.of("", "Scheme", "scheme ", "keyless.policy", "schemes", "placement"));
  }

  @Provide
  Arbitrary<String> blanks() {
    return Arbitraries.of("", " ", "  ", "\t", " \t ");
  }

  @Provide
  Arbitrary<Map<String, Object>> foreignConfigs() {
    Arbitrary<String> keys = Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(20)
            .filter(k -> !k.startsWith(RoutingSpec.PREFIX)),
        Arbitraries.of("bootstrap.servers", "partitioner.class", "routing", "routingscheme",
            "Routing.scheme", "ROUTING.SCHEME", " routing.scheme", "x.routing.scheme"));
    Arbitrary<Object> values = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(10).map(s -> (Object) s),
        Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.just("nonsense"));
    return Arbitraries.maps(keys, values).ofMaxSize(8);
  }
}
