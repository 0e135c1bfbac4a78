package io.github.routingkit.benchmarks;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;

/**
 * Prints a SHA-256 digest of the full assignment RoutingKit's two assignors give in every
 * {@link AssignorBenchmark} scenario, fresh and rebalance: one line per (scenario, assignor,
 * event). {@code AssignmentDigestsTest} (tagged {@code slow}, run in {@code verify}) compares them
 * to the committed {@code assignment-digests.txt} in the test resources; this class prints them
 * from the benchmark jar.
 *
 * <p>Usage: {@code java -Xmx8g -cp routing-benchmarks/target/benchmarks.jar
 * io.github.routingkit.benchmarks.AssignmentDigests [scenario ...]} (all scenarios without
 * arguments).
 */
public final class AssignmentDigests {
  private AssignmentDigests() {}

  /**
   * Prints the digests.
   *
   * @param args scenario names of {@link AssignorBenchmark} (its {@code scenario} parameter), or
   *     none for all of them
   * @throws Exception if a scenario cannot be set up
   */
  public static void main(String[] args) throws Exception {
    digests(args.length > 0 ? List.of(args) : scenarios())
        .forEach((name, digest) -> System.out.println(name + " " + digest));
  }

  /**
   * The digests of the given scenarios, by {@code scenario assignor event}, in the order printed.
   *
   * @param scenarios scenario names of {@link AssignorBenchmark}
   * @return the digest of each (scenario, assignor, event)
   * @throws Exception if a scenario cannot be set up
   */
  static Map<String, String> digests(List<String> scenarios) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (String scenario : scenarios) {
      for (String assignor : List.of("routing", "routing-group")) {
        AssignorBenchmark b = new AssignorBenchmark();
        b.scenario = scenario;
        b.assignor = assignor;
        b.setUp();
        out.put(scenario + " " + assignor + " fresh", digest(b.fresh()));
        out.put(scenario + " " + assignor + " rebalance", digest(b.rebalance()));
      }
    }
    return out;
  }

  static List<String> scenarios() throws NoSuchFieldException {
    org.openjdk.jmh.annotations.Param p = AssignorBenchmark.class.getDeclaredField("scenario")
        .getAnnotation(org.openjdk.jmh.annotations.Param.class);
    return List.of(p.value());
  }

  /** The digest of a classic or a KIP-848 group assignment, by member, topic and partition. */
  static String digest(Object result) throws NoSuchAlgorithmException {
    Map<String, List<String>> byMember = new TreeMap<>();
    if (result instanceof GroupAssignment classic) {
      for (Map.Entry<String, Assignment> e : classic.groupAssignment().entrySet()) {
        List<String> ps = new ArrayList<>();
        for (TopicPartition tp : e.getValue().partitions()) {
          ps.add(tp.topic() + "-" + tp.partition());
        }
        byMember.put(e.getKey(), ps);
      }
    } else {
      var group = (org.apache.kafka.coordinator.group.api.assignor.GroupAssignment) result;
      for (Map.Entry<String, MemberAssignment> e : group.members().entrySet()) {
        List<String> ps = new ArrayList<>();
        for (Map.Entry<Uuid, java.util.Set<Integer>> t : e.getValue().partitions().entrySet()) {
          for (int p : t.getValue()) {
            ps.add(t.getKey() + "-" + p);
          }
        }
        byMember.put(e.getKey(), ps);
      }
    }
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    int partitions = 0;
    for (Map.Entry<String, List<String>> e : byMember.entrySet()) {
      List<String> ps = e.getValue();
      ps.sort(null);
      partitions += ps.size();
      md.update(e.getKey().getBytes(StandardCharsets.UTF_8));
      md.update((byte) ':');
      for (String p : ps) {
        md.update(p.getBytes(StandardCharsets.UTF_8));
        md.update((byte) ',');
      }
      md.update((byte) '\n');
    }
    return HexFormat.of().formatHex(md.digest(), 0, 12) + " (" + byMember.size() + " members, "
        + partitions + " partitions)";
  }
}
