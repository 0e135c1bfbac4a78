package io.github.routingkit.config;

import io.github.routingkit.property.Fuzz;
import io.github.routingkit.RoutingConfigException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Fuzzer for RoutingSpec's text front end and serialized form: hostile property maps
 * (values with commas, "a.b=", quotes, backslashes, newlines, unicode, huge), random strings, and
 * tampered serialized streams. Every spec that parses must equal parse(toString()),
 * parse(toMap()) and its Java-serialization copy; anything else must be a RoutingConfigException
 * (text) or an IOException (streams). A fixed number of cases per property from a fixed seed
 * ({@link Fuzz}: {@code -Dfuzz.scale}, {@code -Dfuzz.seed}).
 */
class HostileSpecFuzzTest {
  static final String[] TRICKY = {"a", "a,b", "user=1,user=2", "x, routing.b=c", "x,a.b=c", "x,a.b =c",
      "\"q\"", "\"", "q\"", "a\\", "\\\"", "\u00e9", "a\nb", "a\n,b.c=d", "  spaced  ", "a,,b", "a, ,b",
      "a,", ",a", "\ud83d\ude00", "\ud800", "\u0000", "=", "a=b", ".=", "a.b=", " , a.b= ", "\t",
      "\"a,b.c=d\"", "x\\,y", "[a, b]", "a;b", "%", "5%", "0.5", "-0", "1e-3", "NaN", "Infinity"};

  static final Map<String, String[]> VALUES = new LinkedHashMap<>();

  static {
    VALUES.put("routing.scheme", new String[] {"kafka-murmur2", "pulsar-java-string", "xxh3-64",
        "murmur2", " kafka-murmur2 "});
    VALUES.put("routing.placement", new String[] {"native", "jump", "modulo", "floor-mod", "JUMP"});
    VALUES.put("routing.keyless", new String[] {"round-robin", "sticky", "random", "kafka-sticky"});
    VALUES.put("routing.segment.ranges", new String[] {"order:0-5,payment:6-8", "a:0", "a:0-5, b:3-4",
        "x:0-2147483647", "\u00e9:1"});
    VALUES.put("routing.segment.weights", new String[] {"order:3,payment:1,*:2", "a:1", "a:0",
        "a:999999999999"});
    VALUES.put("routing.segment.exclusive", new String[] {"payment", "order", "nope"});
    VALUES.put("routing.segment.separator", new String[] {":", "/", ",", "=", "\"", ", a.b=", "\\", "||"});
    VALUES.put("routing.segment.regex", new String[] {"^@([^/]+)/", "(a,b.c=)", "\"(x)\"", "([,])",
        "(\\\\)", "(", "(a)(b)", "((((((((((a))))))))))", "(a" + ",".repeat(3) + ")", "(\"),x.y=(\")"});
    VALUES.put("routing.hotkey.keys", TRICKY);
    VALUES.put("routing.hotkey.detect", new String[] {"true", "false", "TRUE", "yes"});
    VALUES.put("routing.hotkey.threshold", new String[] {"0.01", "1", "0", "1e-9", "NaN"});
    VALUES.put("routing.hotkey.memory", new String[] {"800", "65536", "67108864", "67108865", "-1"});
    VALUES.put("routing.hotkey.window", new String[] {"1000000", "9223372036854775807", "1"});
    VALUES.put("routing.hotkey.sample", new String[] {"1", "8", "1024", "3"});
    VALUES.put("routing.hotkey.candidates", new String[] {"2", "all", "8", "1", "2147483647"});
    VALUES.put("routing.hotkey.choice", new String[] {"least-loaded", "round-robin", "value-hash"});
    VALUES.put("routing.version.generations", new String[] {"v1:kafka-murmur2:native:12,v2:xxh3-64:jump:*",
        "v1:kafka-murmur2", "v\u00e9:xxh3-64:jump:2147483647", "v1:kafka-murmur2,v1:xxh3-64"});
    VALUES.put("routing.version.default", new String[] {"v1", "v2", "v\u00e9"});
    VALUES.put("routing.version.source", new String[] {"key-prefix", "header"});
    VALUES.put("routing.version.separator", new String[] {"|", "#", ",", ", a.b=", "\"", "\\"});
    VALUES.put("routing.version.header", new String[] {"routing-version", "x,y.z=1", "\"h\"", "\u00e9"});
    VALUES.put("routing.canary.share", new String[] {"5%", "0.05", "0", "1", "100%", "101%", "-0"});
    VALUES.put("routing.canary.next.placement", new String[] {"jump", "native"});
    VALUES.put("routing.canary.next.scheme", new String[] {"xxh3-64", "kafka-murmur2"});
    VALUES.put("routing.canary.next.hotkey.keys", TRICKY);
    VALUES.put("routing.canary.next.segment.separator", new String[] {"/", ",", ", a.b="});
  }

  static Map<String, Object> randomMap(Random r) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>(VALUES.keySet());
    for (int k = r.nextInt(6); k >= 0; k--) {
      String key = keys.get(r.nextInt(keys.size()));
      String[] vs = VALUES.get(key);
      String v = vs[r.nextInt(vs.length)];
      if (r.nextInt(10) == 0) {
        v = TRICKY[r.nextInt(TRICKY.length)];
      }
      if (r.nextInt(20) == 0) {
        v = v + "," + TRICKY[r.nextInt(TRICKY.length)];
      }
      m.put(key, r.nextInt(15) == 0 ? List.of(v, TRICKY[r.nextInt(TRICKY.length)]) : v);
    }
    return m;
  }

  static RoutingSpec roundTrip(RoutingSpec s) throws Exception {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bo)) {
      o.writeObject(s);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      return (RoutingSpec) in.readObject();
    }
  }

  static byte[] bytes(Object s) throws IOException {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bo)) {
      o.writeObject(s);
    }
    return bo.toByteArray();
  }

  @Test
  void hostileMapsRoundTrip() throws Exception {
    long seed = Fuzz.base();
    int cases = Fuzz.single() ? 1 : Fuzz.cases(4_000);
    int n = 0;
    int parsed = 0;
    List<String> problems = new ArrayList<>();
    Map<String, Integer> unexpected = new TreeMap<>();
    while (n < cases && problems.size() < 20) {
      Random r = new Random(seed + n);
      Map<String, Object> m = randomMap(r);
      n++;
      RoutingSpec s;
      try {
        s = RoutingSpec.parse(m);
      } catch (RoutingConfigException e) {
        continue;
      } catch (Throwable e) {
        unexpected.merge(e.getClass().getName(), 1, Integer::sum);
        problems.add("seed " + (seed + n - 1) + " parse(map) threw " + e + " for " + m);
        continue;
      }
      parsed++;
      String text = s.toString();
      try {
        RoutingSpec fromText = RoutingSpec.parse(text);
        if (!fromText.equals(s)) {
          problems.add("seed " + (seed + n - 1) + " parse(toString()) differs: " + m + " -> '" + text
              + "' -> " + fromText.toMap());
        }
        if (!fromText.toString().equals(text)) {
          problems.add("toString unstable: " + text + " vs " + fromText);
        }
      } catch (Throwable e) {
        problems.add("seed " + (seed + n - 1) + " parse(toString()) threw " + e + " for " + m
            + " text '" + text + "'");
      }
      try {
        if (!RoutingSpec.parse(s.toMap()).equals(s)) {
          problems.add("parse(toMap()) differs for " + m);
        }
      } catch (Throwable e) {
        problems.add("parse(toMap()) threw " + e + " for " + m);
      }
      try {
        if (!roundTrip(s).equals(s)) {
          problems.add("serialization differs for " + m);
        }
      } catch (Throwable e) {
        problems.add("serialization threw " + e + " for " + m);
      }
    }
    Fuzz.log("spec maps: " + n + " tried, " + parsed + " parsed, problems "
        + problems.size() + ", unexpected exceptions " + unexpected);
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("\n", problems));
    }
  }

  @Test
  void hostileStringsFailCleanly() {
    Random r = new Random(Fuzz.base());
    int cases = Fuzz.cases(15_000);
    String[] atoms = {"routing.", "scheme", "hotkey.keys", "segment.regex", "=", ",", "\"", "\\", " ",
        "a.b=", "x", "\u00e9", "\ud800", "\n", "canary.next.", "canary.share=5%", "version.generations=",
        "v1:kafka-murmur2", "segment.ranges=a:0-1", "(", ")", "[", "%", "1"};
    int n = 0;
    Map<String, Integer> outcomes = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    while (n < cases) {
      StringBuilder sb = new StringBuilder();
      for (int k = r.nextInt(30); k >= 0; k--) {
        sb.append(atoms[r.nextInt(atoms.length)]);
      }
      String text = sb.toString();
      n++;
      try {
        RoutingSpec s = RoutingSpec.parse(text);
        outcomes.merge("parsed", 1, Integer::sum);
        RoutingSpec again = RoutingSpec.parse(s.toString());
        if (!again.equals(s)) {
          problems.add("'" + text + "' -> '" + s + "' -> '" + again + "'");
        }
      } catch (RoutingConfigException e) {
        outcomes.merge("RoutingConfigException", 1, Integer::sum);
      } catch (Throwable e) {
        outcomes.merge(e.getClass().getName(), 1, Integer::sum);
        if (problems.size() < 10) {
          problems.add("'" + text + "' threw " + e);
        }
      }
    }
    Fuzz.log("spec strings: " + n + " tried, outcomes " + outcomes);
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("\n", problems));
    }
  }

  @Test
  void tamperedStreamsFailCleanly() throws Exception {
    RoutingSpec[] specs = {RoutingSpec.defaults(),
        RoutingSpec.parse(Map.of("routing.hotkey.keys", "a,b", "routing.segment.separator", ", a.b=",
            "routing.segment.ranges", "a:0-1")),
        RoutingSpec.parse("routing.scheme=xxh3-64, routing.canary.share=5%, routing.canary.next.placement=jump")};
    Random r = new Random(Fuzz.base());
    int cases = Fuzz.cases(6_000);
    Map<String, Integer> outcomes = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    int n = 0;
    while (n < cases) {
      RoutingSpec s = specs[r.nextInt(specs.length)];
      byte[] b = bytes(s);
      int kind = r.nextInt(3);
      if (kind == 0) {
        b = java.util.Arrays.copyOf(b, r.nextInt(b.length));
      } else {
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
          b[r.nextInt(b.length)] = (byte) (kind == 1 ? r.nextInt(256) : b[r.nextInt(b.length)]);
        }
      }
      n++;
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
        Object o = in.readObject();
        if (o instanceof RoutingSpec rs) {
          outcomes.merge(rs.equals(s) ? "same spec" : "OTHER spec", 1, Integer::sum);
          if (!rs.equals(s)) {
            RoutingSpec.parse(rs.toString()); // still a valid spec?
            if (outcomes.get("OTHER spec") < 4) {
              Fuzz.log("tampered stream gave another spec: '" + s + "' -> '" + rs + "'");
            }
          }
        } else {
          outcomes.merge("other object " + (o == null ? "null" : o.getClass().getName()), 1, Integer::sum);
        }
      } catch (IOException | ClassNotFoundException e) {
        outcomes.merge(e.getClass().getSimpleName(), 1, Integer::sum);
      } catch (Throwable e) {
        if (outcomes.merge("!" + e.getClass().getName(), 1, Integer::sum) == 1) {
          Fuzz.log("tampered stream threw " + e + " at "
              + java.util.Arrays.toString(java.util.Arrays.copyOf(e.getStackTrace(), 6)));
        }
        // ObjectInputStream's own NullPointerException / ClassCastException / IllegalStateException
        // on a corrupt stream are the JDK's; only one thrown from RoutingKit code is a finding
        boolean ours = java.util.Arrays.stream(e.getStackTrace())
            .anyMatch(f -> f.getClassName().startsWith("io.github.routingkit.config.")
                && !f.getClassName().contains("HostileSpecFuzzTest"));
        if (problems.size() < 10 && ours) {
          problems.add(e.toString());
        }
      }
    }
    Fuzz.log("tampered streams: " + n + " tried, outcomes " + outcomes);
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("\n", problems));
    }
  }
}
