package io.github.routingkit.assignment;

import io.github.routingkit.testing.DigestFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * Compares a digest of {@link AssignmentPolicy}'s results on seeded random groups (every mix of
 * weights, topic weights, racks, owned partitions and subscription patterns, each followed by
 * rebalances in which members leave, join, change subscription or claim from older generations,
 * in both modes, through the shortcuts and the general path alike) to the file named by the
 * committed file {@code policy-digests.txt} next to this class in the test resources: one line per
 * block of seeds and one over all, so a change of any assignment fails the test and names the
 * blocks that moved. {@code -Dassignment.digests.update=true} rewrites the file, for a change meant
 * to move assignments (say why in the commit); see {@link DigestFile}.
 */
@Tag("slow")
class PolicyDigestsTest {
  private static final int SEEDS = 24_000;
  private static final int BLOCK = 1_000;

  @Test
  void assignmentsMatchTheCommittedDigests() throws IOException, NoSuchAlgorithmException {
    List<DigestFile.Entry> lines = new ArrayList<>();
    MessageDigest all = MessageDigest.getInstance("SHA-256");
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    long calls = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      Random r = new Random(seed);
      int kind = (int) (seed % 8);
      GroupState g = GroupState.random(seed, (kind & 1) != 0, r.nextInt(5) == 0, (kind & 2) != 0,
          r.nextBoolean(), (kind & 4) != 0);
      Set<String> names = new HashSet<>();
      g.topics().forEach(t -> names.add(t.name()));
      for (int step = 0; step < 4; step++) {
        RebalanceMode mode = r.nextBoolean() ? RebalanceMode.COOPERATIVE : RebalanceMode.EAGER;
        for (boolean shortcut : new boolean[] {true, false}) {
          RebalanceResult a = AssignmentPolicy.assign(g.members().toArray(new GroupMember[0]),
              g.topics().toArray(new AssignableTopic[0]), null, mode, shortcut);
          md.update((a.byMember() + "|" + a.pendingRevocation() + "\n")
              .getBytes(StandardCharsets.UTF_8));
          calls++;
        }
        RebalanceResult a = g.assign(mode);
        GroupState next = g.after(a, step + 2 + (r.nextInt(4) == 0 ? 1 : 0));
        List<GroupMember> members = new ArrayList<>(next.members());
        int change = r.nextInt(4);
        if (change == 0 && members.size() > 1) {
          members.remove(r.nextInt(members.size()));
        } else if (change == 1) {
          GroupMember j = GroupMember.of("joiner-" + step, names);
          members.add(r.nextBoolean() ? j.withRack(GroupState.RACKS[r.nextInt(3)]) : j);
        } else if (change == 2 && !members.isEmpty()) {
          int k = r.nextInt(members.size());
          GroupMember m = members.get(k);
          List<String> subs = new ArrayList<>(new java.util.TreeSet<>(names));
          Set<String> pick = new HashSet<>();
          for (String n : subs) {
            if (r.nextBoolean()) {
              pick.add(n);
            }
          }
          if (!pick.isEmpty()) {
            members.set(k, new GroupMember(m.memberId(), m.groupInstanceId(), m.rackId(),
                m.weight(), pick, m.ownedPartitions(), m.generation()));
          }
        } else if (change == 3 && !members.isEmpty()) {
          // a member that missed a rebalance claims what it had one generation earlier
          int k = r.nextInt(members.size());
          GroupMember m = members.get(k);
          GroupMember old = g.members().stream().filter(x -> x.memberId().equals(m.memberId()))
              .findFirst().orElse(m);
          members.set(k, m.withOwned(old.ownedPartitions(), Math.max(0, m.generation() - 1)));
        }
        g = new GroupState(members, next.topics());
      }
      if ((seed + 1) % BLOCK == 0) {
        String d = HexFormat.of().formatHex(md.digest(), 0, 8);
        all.update(d.getBytes(StandardCharsets.UTF_8));
        lines.add(new DigestFile.Entry("seeds " + (seed + 1 - BLOCK) + ".." + seed, d));
      }
    }
    lines.add(0, new DigestFile.Entry("all", HexFormat.of().formatHex(all.digest(), 0, 12) + " ("
        + SEEDS + " groups, " + calls + " calls)"));
    DigestFile.assertMatches(
        Path.of("src/test/resources/io/github/routingkit/assignment/policy-digests.txt"), lines,
        "./mvnw -pl routing-core test -Dtest=PolicyDigestsTest"
            + " -Droutingkit.surefire.excludedGroups=none -D" + DigestFile.UPDATE_PROPERTY + "=true");
  }
}
