package io.github.routingkit.testkit;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;

/**
 * Entry point of the assertions on a Kafka {@link ConsumerPartitionAssignor} (the client-side,
 * {@code group.protocol=classic} read side: partition &rarr; consumer):
 *
 * <pre>{@code
 * AssignmentAssertions.assertThat(new MyAssignor())
 *     .withTopic("orders", 12)
 *     .withMembers("c1", "c2", "c3")
 *     .isBalanced()
 *     .isDeterministicUnderMemberOrder()
 *     .isStickyAcross(List.of(List.of("c1", "c2", "c3"), List.of("c1", "c2"), List.of("c1", "c2", "c4")));
 * }</pre>
 *
 * <p>Needs {@code org.apache.kafka:kafka-clients} on the test classpath; the test kit declares it
 * {@code provided}, so projects that only use Pulsar do not get it. Failures are
 * {@link org.opentest4j.AssertionFailedError}s naming the members and partitions involved.
 */
public final class AssignmentAssertions {
  private AssignmentAssertions() {}

  /**
   * Starts assertions on {@code assignor}.
   *
   * @throws NullPointerException if {@code assignor} is null
   */
  public static AssignorAssert assertThat(ConsumerPartitionAssignor assignor) {
    return new AssignorAssert(assignor);
  }
}
