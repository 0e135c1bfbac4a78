package io.github.routingkit.benchmarks;

import io.github.routingkit.testing.DigestFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Compares the digest of the full assignment RoutingKit's two assignors give in every
 * {@link AssignorBenchmark} scenario, fresh and rebalance ({@link AssignmentDigests}), to the
 * committed file {@code assignment-digests.txt} next to this class in the test resources, so a
 * change of any assignment fails the test and names the scenario, assignor and event.
 * {@code -Dassignment.digests.update=true} rewrites the file, for a change meant to move
 * assignments (say why in the commit); see {@link DigestFile}.
 */
@Tag("slow")
class AssignmentDigestsTest {

  @Test
  void assignmentsMatchTheCommittedDigests() throws Exception {
    List<DigestFile.Entry> lines = new ArrayList<>();
    AssignmentDigests.digests(AssignmentDigests.scenarios())
        .forEach((name, digest) -> lines.add(new DigestFile.Entry(name, digest)));
    DigestFile.assertMatches(
        Path.of("src/test/resources/io/github/routingkit/benchmarks/assignment-digests.txt"), lines,
        "./mvnw -pl routing-benchmarks -am test -Dtest=AssignmentDigestsTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Droutingkit.surefire.excludedGroups=none"
            + " -D" + DigestFile.UPDATE_PROPERTY + "=true");
  }
}
