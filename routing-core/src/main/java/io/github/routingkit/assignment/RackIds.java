package io.github.routingkit.assignment;

import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The members' racks as small ints, numbered by the first member (in canonical order) on each,
 * and replica rack sets translated into those ints. Every builder numbers racks this way, so an
 * order or tie-break by rack id is the same in all of them. Not thread-safe; one per call.
 */
final class RackIds {
  /** A rack set that is known but holds none of the members' racks. */
  private static final int[] NO_MEMBER_RACK = {};
  private static final int RECENT = 8;

  /** Rack id of each member (canonical order), or -1 if it has none. */
  final int[] memberRack;
  /** How many distinct racks the members have. */
  final int count;
  private final Map<String, Integer> ids = new HashMap<>();
  // Adapters pass few distinct rack-set instances (one shared instance per distinct set): each
  // instance is looked up by identity first, without hashing the set's strings per partition.
  private final Map<Set<String>, int[]> byInstance = new IdentityHashMap<>();
  private final Map<Set<String>, int[]> byValue = new HashMap<>();
  @SuppressWarnings("unchecked")
  private final Set<String>[] recent = (Set<String>[]) new Set<?>[RECENT];
  private final int[][] recentIds = new int[RECENT][];
  private int next;

  /** @param members in canonical order */
  RackIds(GroupMember[] members) {
    memberRack = new int[members.length];
    for (int i = 0; i < members.length; i++) {
      String r = members[i].rackId();
      memberRack[i] = r == null ? -1 : ids.computeIfAbsent(r, k -> ids.size());
    }
    count = ids.size();
  }

  /**
   * The member racks among the replica racks {@code rs}: null if {@code rs} is empty (racks
   * unknown), else their ids ascending (an empty array if no member is on any of them). The array
   * is shared between equal sets and must not be changed.
   */
  int[] idsOf(Set<String> rs) {
    for (int j = 0; j < RECENT; j++) {
      if (recent[j] == rs) {
        return recentIds[j];
      }
    }
    int[] out = rs.isEmpty() ? null : translate(rs);
    recent[next] = rs;
    recentIds[next] = out;
    next = (next + 1) % RECENT;
    return out;
  }

  private int[] translate(Set<String> rs) {
    int[] out = byInstance.get(rs);
    if (out != null) {
      return out;
    }
    out = byValue.get(rs);
    if (out == null) {
      int[] buf = new int[rs.size()];
      int c = 0;
      for (String r : rs) {
        Integer id = ids.get(r);
        if (id != null) {
          buf[c++] = id;
        }
      }
      out = c == 0 ? NO_MEMBER_RACK : Arrays.copyOf(buf, c);
      Arrays.sort(out);
      byValue.put(rs, out);
    }
    if (byInstance.size() < 4096) {
      byInstance.put(rs, out);
    }
    return out;
  }
}
