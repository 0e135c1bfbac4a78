package io.github.routingkit.assignment;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The result of {@link AssignmentPolicy#assign}: the partitions each member gets in this rebalance,
 * and the partitions held back until their current owner has revoked them (cooperative mode only).
 *
 * <p>Immutable. Every member of the input appears as a key (possibly with an empty list); lists are
 * sorted by {@link PartitionRef} order; no partition appears twice.
 */
public final class GroupAssignment {
  private final Map<String, List<PartitionRef>> byMember;
  private final Set<PartitionRef> pendingRevocation;

  GroupAssignment(Map<String, List<PartitionRef>> byMember, Set<PartitionRef> pendingRevocation) {
    this.byMember = Collections.unmodifiableMap(new TreeMap<>(byMember));
    this.pendingRevocation = Collections.unmodifiableSet(new TreeSet<>(pendingRevocation));
  }

  /** Returns member id to its sorted partitions, for every member, in member-id order. */
  public Map<String, List<PartitionRef>> byMember() {
    return byMember;
  }

  /** Returns the sorted partitions of {@code memberId}, or an empty list for an unknown member. */
  public List<PartitionRef> partitionsOf(String memberId) {
    return byMember.getOrDefault(memberId, List.of());
  }

  /**
   * Returns the partitions given to nobody in this rebalance because another member still owns
   * them and must revoke them first (always empty in {@link RebalanceMode#EAGER}). Kafka's
   * cooperative protocol runs a follow-up rebalance after a revocation, which hands them over.
   */
  public Set<PartitionRef> pendingRevocation() {
    return pendingRevocation;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupAssignment g
        && byMember.equals(g.byMember)
        && pendingRevocation.equals(g.pendingRevocation);
  }

  @Override
  public int hashCode() {
    return byMember.hashCode() * 31 + pendingRevocation.hashCode();
  }

  @Override
  public String toString() {
    return "GroupAssignment" + byMember + (pendingRevocation.isEmpty() ? "" : " pending " + pendingRevocation);
  }
}
