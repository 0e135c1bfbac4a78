package io.github.routingkit.kafka;

import io.github.routingkit.assignment.GroupMember;
import io.github.routingkit.assignment.PartitionRef;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The subscription userData of {@link RoutingAssignor}, version 1 (big-endian):
 * <pre>
 * int16 version (= 1)
 * int32 weight               in [1, 1000000]
 * int32 generation           of the assignment below, -1 if none
 * int32 topicCount           then per topic:
 *   int16 nameLength, UTF-8 name bytes
 *   int32 partitionCount, int32 partition...
 * </pre>
 * The assignment is the member's last one: under EAGER the member has revoked everything before
 * it joins, so this is what keeps EAGER rebalances sticky. Decoding never throws: null, empty,
 * truncated, garbage or future-version data decodes to weight 1, nothing owned, with a
 * {@code problem} (null for null or empty data).
 */
final class AssignorUserData {
  private final int weight;
  private final int generation;
  private final List<PartitionRef> owned;
  private final String problem;

  AssignorUserData(int weight, int generation, List<PartitionRef> owned, String problem) {
    this.weight = weight;
    this.generation = generation;
    this.owned = owned;
    this.problem = problem;
  }

  static final short VERSION = 1;
  static final AssignorUserData FALLBACK =
      new AssignorUserData(1, GroupMember.UNKNOWN_GENERATION, List.of(), null);

  static ByteBuffer encode(int weight, int generation, List<PartitionRef> owned) {
    Map<String, List<Integer>> byTopic = new TreeMap<>();
    for (PartitionRef p : owned) {
      byTopic.computeIfAbsent(p.topic(), t -> new ArrayList<>()).add(p.partition());
    }
    List<byte[]> names = new ArrayList<>();
    int size = 2 + 4 + 4 + 4;
    for (Map.Entry<String, List<Integer>> e : byTopic.entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
      names.add(name);
      size += 2 + name.length + 4 + 4 * e.getValue().size();
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putShort(VERSION).putInt(weight).putInt(generation).putInt(byTopic.size());
    int i = 0;
    for (List<Integer> ps : byTopic.values()) {
      byte[] name = names.get(i++);
      b.putShort((short) name.length).put(name).putInt(ps.size());
      ps.forEach(b::putInt);
    }
    return b.flip();
  }

  /** Decodes {@code data} without moving its position; never throws. */
  static AssignorUserData decode(ByteBuffer data) {
    if (data == null || !data.hasRemaining()) {
      return FALLBACK; // a member that sent none: not a problem worth a warning
    }
    ByteBuffer b = data.duplicate();
    try {
      short version = b.getShort();
      if (version != VERSION) {
        return fallback("userData version " + version + ", this assignor reads version " + VERSION);
      }
      int weight = b.getInt();
      if (weight < 1 || weight > GroupMember.MAX_WEIGHT) {
        return fallback("weight " + weight + " outside [1, " + GroupMember.MAX_WEIGHT + "]");
      }
      int generation = b.getInt();
      int topics = b.getInt();
      if (topics < 0 || topics > b.remaining()) {
        return fallback("topic count " + topics);
      }
      List<PartitionRef> owned = new ArrayList<>();
      for (int t = 0; t < topics; t++) {
        int len = b.getShort() & 0xffff;
        if (len > b.remaining()) {
          return fallback("truncated topic name");
        }
        byte[] name = new byte[len];
        b.get(name);
        int count = b.getInt();
        if (count < 0 || count > b.remaining() / 4) {
          return fallback("partition count " + count);
        }
        String topic = new String(name, StandardCharsets.UTF_8);
        for (int i = 0; i < count; i++) {
          int p = b.getInt();
          if (p < 0) {
            return fallback("negative partition " + p);
          }
          owned.add(new PartitionRef(topic, p));
        }
      }
      if (b.hasRemaining()) {
        return fallback(b.remaining() + " trailing bytes");
      }
      return new AssignorUserData(weight, generation, List.copyOf(owned), null);
    } catch (BufferUnderflowException e) {
      return fallback("truncated userData (" + data.remaining() + " bytes)");
    }
  }

  private static AssignorUserData fallback(String problem) {
    return new AssignorUserData(1, GroupMember.UNKNOWN_GENERATION, List.of(), problem);
  }

  public int weight() {
    return weight;
  }

  public int generation() {
    return generation;
  }

  public List<PartitionRef> owned() {
    return owned;
  }

  public String problem() {
    return problem;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof AssignorUserData)) {
      return false;
    }
    AssignorUserData other = (AssignorUserData) o;
    return weight == other.weight
        && generation == other.generation
        && Objects.equals(owned, other.owned)
        && Objects.equals(problem, other.problem);
  }

  @Override
  public int hashCode() {
    int h = 0;
    h = 31 * h + Integer.hashCode(weight);
    h = 31 * h + Integer.hashCode(generation);
    h = 31 * h + Objects.hashCode(owned);
    h = 31 * h + Objects.hashCode(problem);
    return h;
  }

  @Override
  public String toString() {
    return "AssignorUserData[weight=" + weight + ", generation=" + generation + ", owned=" + owned
        + ", problem=" + problem + "]";
  }
}
