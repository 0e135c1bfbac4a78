package io.github.routingkit.examples.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testbrokers.EmbeddedPulsar;
import io.github.routingkit.pulsar.BundleLocator;
import io.github.routingkit.pulsar.BundleLocator.Bundle;
import io.github.routingkit.pulsar.BundleLocator.SplitAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real Pulsar 4.2.4 standalone: for a 64-partition topic in namespaces with 4 and with 16
 * bundles, the bundle the broker reports for every partition equals {@link BundleLocator}'s; the
 * broker's boundaries after a split equal the predicted split positions.
 */
@Tag("broker")
class PulsarBundleBrokerTest {
  static EmbeddedPulsar pulsar;

  @BeforeAll
  static void start() {
    pulsar = EmbeddedPulsar.start();
  }

  @AfterAll
  static void stop() {
    if (pulsar != null) {
      pulsar.close();
    }
  }

  @Test
  void everyPartitionIsInThePredictedBundle() throws Exception {
    PulsarAdmin admin = pulsar.admin();
    for (int bundles : new int[] {4, 16}) {
      String ns = "public/bundles-" + bundles;
      admin.namespaces().createNamespace(ns, bundles);
      BundleLocator locator = BundleLocator.equalBundles(bundles);
      assertThat(BundleLocator.ofBoundaries(admin.namespaces().getBundles(ns).getBoundaries()))
          .isEqualTo(locator);
      String topic = "persistent://" + ns + "/orders";
      pulsar.createPartitionedTopic(topic, 64);
      int[] perBundle = new int[bundles];
      for (int p = 0; p < 64; p++) {
        String partition = BundleLocator.partitionName(topic, p);
        Bundle predicted = locator.bundleOf(topic, p);
        assertThat(admin.lookups().getBundleRange(partition)).as(partition)
            .isEqualTo(predicted.range());
        perBundle[predicted.index()]++;
      }
      System.out.printf("%d bundles, 64 partitions, broker == BundleLocator for all; per bundle: %s%n",
          bundles, java.util.Arrays.toString(perBundle));
    }
  }

  @Test
  void splitsHappenWhereTheLocatorSays() throws Exception {
    PulsarAdmin admin = pulsar.admin();
    String ns = "public/bundles-split";
    admin.namespaces().createNamespace(ns, 4);
    String topic = "persistent://" + ns + "/orders";
    pulsar.createPartitionedTopic(topic, 64);
    List<String> partitions = new ArrayList<>();
    for (int p = 0; p < 64; p++) {
      partitions.add(BundleLocator.partitionName(topic, p));
    }
    BundleLocator locator = BundleLocator.equalBundles(4);
    for (SplitAlgorithm algorithm : SplitAlgorithm.values()) {
      // the hot bundle: the one holding the most partitions
      Map<Bundle, List<String>> perBundle = locator.topicsPerBundle(partitions);
      Bundle hot = perBundle.entrySet().stream()
          .max(java.util.Comparator.comparingInt(e -> e.getValue().size())).orElseThrow().getKey();
      OptionalLong position = locator.splitPosition(hot, algorithm, partitions);
      assertThat(position).isPresent();
      admin.lookups().lookupTopic(perBundle.get(hot).get(0)); // the broker must own the bundle
      admin.namespaces().splitNamespaceBundle(ns, hot.range(), false, algorithm.brokerName());
      BundleLocator predicted = locator.split(hot, position.getAsLong());
      BundleLocator actual =
          BundleLocator.ofBoundaries(admin.namespaces().getBundles(ns).getBoundaries());
      System.out.printf("%s split %s (%d partitions) at %s: broker boundaries %s%n",
          algorithm.brokerName(), hot.range(), perBundle.get(hot).size(),
          String.format("0x%08x", position.getAsLong()), actual.boundaries());
      assertThat(actual).isEqualTo(predicted);
      for (String partition : partitions) {
        assertThat(admin.lookups().getBundleRange(partition))
            .isEqualTo(predicted.bundleOf(partition).range());
      }
      locator = predicted;
    }
  }
}
