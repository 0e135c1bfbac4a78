package io.github.routingkit.assignment;
import java.util.*;
class DebugMain {
  public static void main(String[] a) {
    long seed = Long.parseLong(a[0]);
    Random r = new Random(seed);
    GroupState g = GroupState.random(seed, r.nextBoolean(), r.nextInt(4) == 0, r.nextBoolean(),
          r.nextBoolean(), r.nextBoolean());
    RebalanceResult x = g.assign(RebalanceMode.EAGER);
    GroupState next = g.after(x, 7);
    RebalanceResult y = next.assign(RebalanceMode.EAGER);
    for (GroupMember m : g.members()) {
      String id = m.memberId();
      if (!x.partitionsOf(id).equals(y.partitionsOf(id))) System.out.println(id + "@" + m.rackId() + " w" + m.weight() + " subs " + m.topics() + " owned " + m.ownedPartitions() + "\n  " + x.partitionsOf(id) + "\n  " + y.partitionsOf(id));
    }
    for (AssignableTopic t : g.topics()) System.out.println(t.name() + " " + t.partitions() + " w" + t.weight() + " " + t.replicaRacks());
  }
}
