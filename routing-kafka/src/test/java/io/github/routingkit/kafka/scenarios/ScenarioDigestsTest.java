package io.github.routingkit.kafka.scenarios;

import io.github.routingkit.kafka.RoutingAssignor;
import io.github.routingkit.kafka.RoutingAssignorConfig;
import io.github.routingkit.kafka.RoutingGroupAssignor;
import io.github.routingkit.testing.DigestFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Compares a digest of every assignment RoutingKit's two adapters give in
 * {@link KafkaAssignorScenariosTest}'s catalogue (each scenario's history, and each step started
 * from the same group state as in {@code fromTheSameGroupStateNoMoreMovesThanKafka}), one line per
 * scenario and one over all, to the committed file {@code scenario-digests.txt} next to this class
 * in the test resources, so a change of any assignment fails the test and names the scenario.
 * {@code -Dassignment.digests.update=true} rewrites the file, for a change meant to move
 * assignments (say why in the commit); see {@link DigestFile}.
 */
class ScenarioDigestsTest {

  @Test
  void assignmentsMatchTheCommittedDigests() throws IOException, NoSuchAlgorithmException {
    List<DigestFile.Entry> lines = new ArrayList<>();
    MessageDigest all = MessageDigest.getInstance("SHA-256");
    int runs = 0;
    for (GroupScenario s : KafkaAssignorScenariosTest.catalogue()) {
      boolean eager = s.name.startsWith("F6: several") || s.upstream.startsWith("StickyAssignorTest");
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      add(md, GroupRun.classic(s, () -> classic(eager), eager).owners());
      add(md, GroupRun.kip848(s, RoutingGroupAssignor::new).owners());
      runs += 2;
      if (!s.consumerRacks) {
        for (int k = 1; k <= s.steps().size(); k++) {
          GroupScenario prefix = GroupScenario.of(s.name + ", step " + k, s.upstream);
          s.topics().forEach(prefix::topic);
          prefix.steps().addAll(s.steps().subList(0, k));
          GroupScenario from = KafkaAssignorScenariosTest.sameStart(prefix,
              GroupRun.kip848(prefix, RoutingGroupAssignor::new).before());
          add(md, GroupRun.kip848(from, RoutingGroupAssignor::new).owners());
          runs++;
          if (!eager) {
            from = KafkaAssignorScenariosTest.sameStart(prefix,
                GroupRun.classic(prefix, RoutingAssignor::new, false).before());
            add(md, GroupRun.classic(from, RoutingAssignor::new, false).owners());
            runs++;
          }
        }
      }
      String d = HexFormat.of().formatHex(md.digest(), 0, 8);
      all.update(d.getBytes(StandardCharsets.UTF_8));
      lines.add(new DigestFile.Entry(s.name, d));
    }
    lines.add(0, new DigestFile.Entry("all", HexFormat.of().formatHex(all.digest(), 0, 12) + " ("
        + lines.size() + " scenarios, " + runs + " runs)"));
    DigestFile.assertMatches(
        Path.of("src/test/resources/io/github/routingkit/kafka/scenarios/scenario-digests.txt"),
        lines, "./mvnw -pl routing-core,routing-kafka test -Dtest=ScenarioDigestsTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -D" + DigestFile.UPDATE_PROPERTY + "=true");
  }

  private static RoutingAssignor classic(boolean eager) {
    RoutingAssignor a = new RoutingAssignor();
    a.configure(eager ? Map.of(RoutingAssignorConfig.REBALANCE_PROTOCOL, "eager") : Map.of());
    return a;
  }

  private static void add(MessageDigest md, Map<String, List<TopicPartition>> owners) {
    owners.forEach((m, ps) -> {
      List<String> sorted = new ArrayList<>();
      ps.forEach(p -> sorted.add(p.toString()));
      sorted.sort(null);
      md.update((m + ":" + String.join(",", sorted) + "\n").getBytes(StandardCharsets.UTF_8));
    });
    md.update((byte) '|');
  }
}
