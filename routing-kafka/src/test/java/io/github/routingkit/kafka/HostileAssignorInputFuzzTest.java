package io.github.routingkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.assignment.PartitionRef;
import io.github.routingkit.property.Fuzz;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.junit.jupiter.api.Test;

/**
 * Fuzzer for the two Kafka assignors with hostile group state: the KIP-848 coordinator's
 * current assignment with unknown topic ids, out-of-range and negative partitions, one partition
 * owned by many, foreign topics, empty sets, this assignor's own SortedIntSet handed back; the
 * classic assignor's broken metadata, subscriptions and userData. Seeded; failures name the seed.
 */
class HostileAssignorInputFuzzTest {
  static void fuzz(String name, int cases, Fuzz.Case c) {
    Fuzz.run(name, cases, c);
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }

  static final String[] RACKS = {"r1", "r2", "", " ", "\u00e9", "\ud83d\ude00"};

  // ---------------------------------------------------------------- KIP-848

  record Kip848(Map<String, GroupSpecStub.Member> members, Map<Uuid, Integer> counts,
      long assignableSalt, Map<Uuid, List<Set<String>>> racks) {
    SubscribedTopicDescriber describer() {
      return new SubscribedTopicDescriber() {
        @Override
        public int numPartitions(Uuid topicId) {
          return counts.getOrDefault(topicId, -1);
        }

        @Override
        public Set<String> racksForPartition(Uuid topicId, int partition) {
          List<Set<String>> r = racks.get(topicId);
          return r == null || partition >= r.size() ? Set.of() : r.get(partition);
        }
      };
    }

    boolean assignable(Uuid t, int p) {
      return assignableSalt == 0 || ((t.hashCode() * 31 + p) ^ assignableSalt) % 7 != 0;
    }

    GroupSpecStub.Spec spec() {
      return new GroupSpecStub.Spec(members, SubscriptionType.HETEROGENEOUS, this::assignable);
    }
  }

  static Kip848 kip848(long seed) {
    Random r = new Random(seed);
    int tc = 1 + r.nextInt(6);
    List<Uuid> ids = new ArrayList<>();
    Map<Uuid, Integer> counts = new HashMap<>();
    Map<Uuid, List<Set<String>>> racks = new HashMap<>();
    for (int t = 0; t < tc; t++) {
      Uuid u = new Uuid(r.nextLong(), r.nextLong());
      ids.add(u);
      int n = switch (r.nextInt(6)) {
        case 0 -> -1;
        case 1 -> 0;
        case 2 -> 100 + r.nextInt(300);
        default -> 1 + r.nextInt(20);
      };
      counts.put(u, n);
      if (n > 0 && r.nextBoolean()) {
        List<Set<String>> rr = new ArrayList<>();
        for (int p = 0; p < n; p++) {
          rr.add(r.nextInt(3) == 0 ? Set.of() : Set.of(RACKS[r.nextInt(RACKS.length)]));
        }
        racks.put(u, rr);
      }
    }
    Uuid stranger = new Uuid(r.nextLong(), r.nextLong()); // unknown to the describer
    Map<String, GroupSpecStub.Member> members = new LinkedHashMap<>();
    int mc = 1 + r.nextInt(20);
    for (int i = 0; i < mc; i++) {
      Set<Uuid> subs = new HashSet<>();
      for (Uuid u : ids) {
        if (r.nextInt(3) != 0) {
          subs.add(u);
        }
      }
      if (r.nextInt(5) == 0) {
        subs.add(stranger);
      }
      Map<Uuid, Set<Integer>> owned = new HashMap<>();
      for (int k = r.nextInt(6); k > 0; k--) {
        Uuid u = r.nextInt(8) == 0 ? stranger : ids.get(r.nextInt(ids.size()));
        int n = Math.max(1, counts.get(u) == null ? 3 : counts.get(u));
        Set<Integer> ps = new HashSet<>();
        for (int j = r.nextInt(n + 1); j > 0; j--) {
          int kind = r.nextInt(12);
          ps.add(kind == 0 ? -1 - r.nextInt(5) : kind == 1 ? n + r.nextInt(3)
              : kind == 2 ? Integer.MAX_VALUE : r.nextInt(n));
        }
        if (r.nextInt(4) == 0) {
          int[] sorted = ps.stream().mapToInt(Integer::intValue).sorted().toArray();
          owned.put(u, new SortedIntSet(sorted)); // what this assignor handed out
        } else {
          owned.put(u, ps); // may be empty
        }
      }
      String rack = r.nextInt(3) == 0 ? null : RACKS[r.nextInt(RACKS.length)];
      String inst = r.nextBoolean() ? null : "i" + r.nextInt(mc);
      members.put("m" + i + (r.nextInt(5) == 0 ? "\u00e9" : ""),
          new GroupSpecStub.Member(rack, inst, subs, owned));
    }
    return new Kip848(members, counts, r.nextBoolean() ? 0 : r.nextLong() | 1, racks);
  }

  static Map<String, Map<Uuid, Set<Integer>>> plain(GroupAssignment a) {
    Map<String, Map<Uuid, Set<Integer>>> out = new TreeMap<>();
    a.members().forEach((m, ma) -> {
      Map<Uuid, Set<Integer>> t = new HashMap<>();
      ma.partitions().forEach((u, ps) -> t.put(u, new TreeSet<>(ps)));
      out.put(m, t);
    });
    return out;
  }

  static void validKip848(Kip848 k, GroupAssignment a) {
    check(a.members().keySet().equals(k.members().keySet()), "members " + a.members().keySet());
    Map<Uuid, Set<Integer>> seen = new HashMap<>();
    a.members().forEach((m, ma) -> ma.partitions().forEach((u, ps) -> {
      check(k.members().get(m).topics().contains(u), m + " gets " + u + " it does not subscribe");
      int n = k.counts().getOrDefault(u, -1);
      check(!ps.isEmpty(), m + " gets an empty set for " + u);
      for (int p : ps) {
        check(p >= 0 && p < n, m + " gets " + u + "-" + p + " out of range (" + n + ")");
        check(k.assignable(u, p), m + " gets unassignable " + u + "-" + p);
        check(seen.computeIfAbsent(u, x -> new HashSet<>()).add(p), u + "-" + p + " twice");
      }
    }));
    Set<Uuid> subscribed = new HashSet<>();
    k.members().values().forEach(m -> subscribed.addAll(m.topics()));
    for (Uuid u : subscribed) {
      int n = k.counts().getOrDefault(u, -1);
      for (int p = 0; p < n; p++) {
        if (k.assignable(u, p)) {
          check(seen.getOrDefault(u, Set.of()).contains(p), u + "-" + p + " assigned to nobody");
        }
      }
    }
  }

  static final java.util.concurrent.atomic.AtomicInteger UNASSIGNABLE_NOT_FIXPOINT =
      new java.util.concurrent.atomic.AtomicInteger();

  @Test
  void kip848HostileCurrentAssignment() {
    fuzz("KIP-848 hostile current assignment", 600, seed -> {
      Kip848 k = kip848(seed);
      RoutingGroupAssignor as = new RoutingGroupAssignor();
      GroupAssignment a = as.assign(k.spec(), k.describer());
      validKip848(k, a);
      // same state, members in reverse order, fresh (HashSet) copies of every set
      Map<String, GroupSpecStub.Member> rev = new LinkedHashMap<>();
      List<String> ids = new ArrayList<>(k.members().keySet());
      Collections.reverse(ids);
      for (String id : ids) {
        GroupSpecStub.Member m = k.members().get(id);
        Map<Uuid, Set<Integer>> o = new HashMap<>();
        m.owned().forEach((u, ps) -> o.put(u, new HashSet<>(ps)));
        rev.put(id, new GroupSpecStub.Member(m.rack(), m.instance(), new HashSet<>(m.topics()), o));
      }
      Kip848 k2 = new Kip848(rev, k.counts(), k.assignableSalt(), k.racks());
      GroupAssignment b = as.assign(k2.spec(), k2.describer());
      check(plain(a).equals(plain(b)), "order or set class changed the result:\n" + plain(a) + "\n" + plain(b));
      // the coordinator hands the target back as the current assignment: a fixpoint
      Map<String, GroupSpecStub.Member> next = new LinkedHashMap<>();
      a.members().forEach((id, ma) -> {
        GroupSpecStub.Member m = k.members().get(id);
        next.put(id, new GroupSpecStub.Member(m.rack(), m.instance(), m.topics(), ma.partitions()));
      });
      Kip848 k3 = new Kip848(next, k.counts(), k.assignableSalt(), k.racks());
      GroupAssignment c = as.assign(k3.spec(), k3.describer());
      if (k.assignableSalt() != 0 && !plain(a).equals(plain(c))) {
        UNASSIGNABLE_NOT_FIXPOINT.incrementAndGet(); // left out partitions change the next state
        return;
      }
      check(plain(a).equals(plain(c)), "handing the target back moved partitions (all"
          + " assignable):\n" + plain(a) + "\n" + plain(c));
      for (String id : a.members().keySet()) {
        MemberAssignment x = c.members().get(id);
        check(x.partitions() == a.members().get(id).partitions()
            || x.partitions().equals(a.members().get(id).partitions()), "");
      }
    });
    Fuzz.log("KIP-848 not a fixpoint with unassignable partitions: "
        + UNASSIGNABLE_NOT_FIXPOINT.get());
  }

  @Test
  void kip848NullSetInCurrentAssignment() {
    Uuid t = new Uuid(1, 2);
    Map<Uuid, Set<Integer>> owned = new HashMap<>();
    owned.put(t, null);
    Map<String, GroupSpecStub.Member> members = new LinkedHashMap<>();
    members.put("a", new GroupSpecStub.Member(null, null, Set.of(t), owned));
    Kip848 k = new Kip848(members, Map.of(t, 3), 0, Map.of());
    // guards against: a bare NullPointerException out of the owned-partition reader
    GroupAssignment r = new RoutingGroupAssignor().assign(k.spec(), k.describer());
    assertThat(r.members().get("a").partitions()).as("read as owning nothing of t")
        .containsOnlyKeys(t);
    assertThat(r.members().get("a").partitions().get(t)).containsExactlyInAnyOrder(0, 1, 2);
  }

  // ---------------------------------------------------------------- classic

  record Classic(Cluster cluster, Map<String, Subscription> subs) {}

  static Classic classic(long seed) {
    Random r = new Random(seed);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String rack = r.nextBoolean() ? null : RACKS[r.nextInt(RACKS.length)];
      nodes.add(new Node(i, "h" + i, 9092, rack));
    }
    int tc = 1 + r.nextInt(5);
    List<PartitionInfo> infos = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int t = 0; t < tc; t++) {
      String name = "t" + t;
      names.add(name);
      int n = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 20 : 300);
      for (int p = 0; p < n; p++) {
        int num = p;
        int kind = r.nextInt(40);
        if (kind == 0) {
          num = -1 - r.nextInt(3);
        } else if (kind == 1) {
          num = n + r.nextInt(1000);
        } else if (kind == 2) {
          num = r.nextInt(n); // duplicate
        }
        Node[] replicas = r.nextInt(5) == 0 ? new Node[0]
            : r.nextInt(10) == 0 ? null
            : new Node[] {nodes.get(r.nextInt(4)), nodes.get(r.nextInt(4))};
        infos.add(new PartitionInfo(name, num, nodes.get(0), replicas, replicas));
      }
    }
    Collections.shuffle(infos, r);
    Cluster cluster = new Cluster("c", nodes, infos, Set.of(), Set.of());
    Map<String, Subscription> subs = new HashMap<>();
    int mc = 1 + r.nextInt(15);
    boolean anyOwned = r.nextBoolean();
    for (int i = 0; i < mc; i++) {
      List<String> topics = new ArrayList<>();
      for (String nm : names) {
        if (r.nextInt(3) != 0) {
          topics.add(nm);
          if (r.nextInt(10) == 0) {
            topics.add(nm); // listed twice
          }
        }
      }
      if (r.nextInt(5) == 0) {
        topics.add("missing");
      }
      List<TopicPartition> owned = new ArrayList<>();
      if (anyOwned) {
        for (int k = r.nextInt(12); k > 0; k--) {
          String nm = r.nextInt(8) == 0 ? "missing" : names.get(r.nextInt(names.size()));
          int p = r.nextInt(10) == 0 ? -1 : r.nextInt(50);
          owned.add(new TopicPartition(nm, p));
        }
      }
      ByteBuffer ud;
      switch (r.nextInt(4)) {
        case 0 -> ud = null;
        case 1 -> {
          byte[] b = new byte[r.nextInt(40)];
          r.nextBytes(b);
          ud = ByteBuffer.wrap(b);
        }
        default -> {
          List<PartitionRef> last = new ArrayList<>();
          for (int k = r.nextInt(20); k > 0; k--) {
            last.add(new PartitionRef(r.nextInt(6) == 0 ? "missing" : names.get(r.nextInt(names.size())),
                r.nextInt(r.nextBoolean() ? 400 : 10)));
          }
          ud = AssignorUserData.encode(1 + r.nextInt(r.nextBoolean() ? 3 : 1_000_000),
              r.nextInt(5) - 1, last);
          if (r.nextInt(4) == 0) { // truncate or corrupt
            ud.limit(r.nextInt(ud.limit() + 1));
          }
        }
      }
      int gen = r.nextInt(5) == 0 ? -1 : r.nextInt(6);
      Subscription s = new Subscription(topics, ud, owned, gen,
          r.nextBoolean() ? Optional.empty() : Optional.of(RACKS[r.nextInt(RACKS.length)]));
      if (r.nextBoolean()) {
        s.setGroupInstanceId(Optional.of("inst" + r.nextInt(mc)));
      }
      subs.put("member-" + i + "-" + r.nextInt(100), s);
    }
    return new Classic(cluster, subs);
  }

  static Map<String, List<TopicPartition>> plainClassic(ConsumerPartitionAssignor.GroupAssignment a) {
    Map<String, List<TopicPartition>> out = new TreeMap<>();
    a.groupAssignment().forEach((m, as) -> {
      List<TopicPartition> l = new ArrayList<>(as.partitions());
      l.sort((x, y) -> x.topic().equals(y.topic()) ? Integer.compare(x.partition(), y.partition())
          : x.topic().compareTo(y.topic()));
      out.put(m, l);
    });
    return out;
  }

  @Test
  void classicHostileMetadataAndSubscriptions() {
    fuzz("classic hostile metadata/subscriptions/userData", 3000, seed -> {
      Classic c = classic(seed);
      RoutingAssignor as = new RoutingAssignor();
      as.configure(Map.of());
      ConsumerPartitionAssignor.GroupAssignment a =
          as.assign(c.cluster(), new ConsumerPartitionAssignor.GroupSubscription(c.subs()));
      check(a.groupAssignment().keySet().equals(c.subs().keySet()), "members");
      Set<TopicPartition> seen = new HashSet<>();
      Map<TopicPartition, String> ownedBy = new HashMap<>();
      c.subs().forEach((m, s) -> s.ownedPartitions().forEach(tp -> ownedBy.merge(tp, m, (x, y) -> "*")));
      boolean coop = c.subs().values().stream().anyMatch(s -> !s.ownedPartitions().isEmpty());
      a.groupAssignment().forEach((m, asg) -> {
        for (TopicPartition tp : asg.partitions()) {
          check(c.subs().get(m).topics().contains(tp.topic()), m + " gets " + tp + " not subscribed");
          check(seen.add(tp), tp + " twice");
          List<PartitionInfo> ps = c.cluster().partitionsForTopic(tp.topic());
          check(ps.stream().anyMatch(pi -> pi.partition() == tp.partition()), tp + " not in metadata");
          check(tp.partition() >= 0 && tp.partition() < ps.size(), tp + " out of range");
          // cooperative (Kafka's leader check): a partition added to m (m did not list it) must not
          // be revoked from anyone else in the same rebalance
          String o = ownedBy.get(tp);
          check(!coop || o == null || c.subs().get(m).ownedPartitions().contains(tp),
              tp + " added to " + m + " while owned by " + o);
        }
      });
      // determinism: same subscriptions in another map order
      Map<String, Subscription> rev = new LinkedHashMap<>();
      List<String> ids = new ArrayList<>(c.subs().keySet());
      Collections.sort(ids, Collections.reverseOrder());
      for (String id : ids) {
        rev.put(id, c.subs().get(id));
      }
      ConsumerPartitionAssignor.GroupAssignment b =
          as.assign(c.cluster(), new ConsumerPartitionAssignor.GroupSubscription(rev));
      check(plainClassic(a).equals(plainClassic(b)), "member order changed the result");
    });
  }

  @Test
  void userDataDecodeNeverThrows() {
    fuzz("AssignorUserData.decode on random/mutated bytes", 300000, seed -> {
      Random r = new Random(seed);
      ByteBuffer b;
      if (r.nextBoolean()) {
        byte[] x = new byte[r.nextInt(64)];
        r.nextBytes(x);
        b = ByteBuffer.wrap(x);
      } else {
        List<PartitionRef> l = new ArrayList<>();
        for (int k = r.nextInt(10); k > 0; k--) {
          l.add(new PartitionRef("t" + r.nextInt(3), r.nextInt(100)));
        }
        ByteBuffer e = AssignorUserData.encode(1 + r.nextInt(5), r.nextInt(9) - 1, l);
        byte[] x = new byte[e.remaining()];
        e.get(x);
        for (int k = 1 + r.nextInt(3); k > 0 && x.length > 0; k--) {
          x[r.nextInt(x.length)] = (byte) r.nextInt(256);
        }
        b = ByteBuffer.wrap(x);
      }
      int pos = b.position();
      AssignorUserData d = AssignorUserData.decode(b);
      check(b.position() == pos, "decode moved the position");
      check(d.weight() >= 1 && d.weight() <= 1_000_000, "weight " + d.weight());
      for (PartitionRef p : d.owned()) {
        check(p.partition() >= 0, "negative");
      }
    });
  }
}
