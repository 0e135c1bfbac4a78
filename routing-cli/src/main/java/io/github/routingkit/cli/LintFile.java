package io.github.routingkit.cli;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client configuration file as {@code routing lint} reads it: its settings in the
 * {@code java.util.Properties} syntax (which is also the {@code key=value} syntax of librdkafka
 * config files and of the documented Sarama, KafkaJS, Pulsar Go and C++ forms), the line each
 * setting starts on, and the lint directives in its comments:
 * <pre>
 * # routing-lint: client=librdkafka
 * # routing-lint: disable=RK015 reason="retries are off in this service (retries=0 in code)"
 * </pre>
 * A byte-order mark is skipped. Refused as bad input ({@link KeyInput.InputException}, exit 2):
 * a missing or unreadable file, one over {@link #MAX_BYTES}, one that is not UTF-8, holds a NUL byte
 * (binary), or holds no setting and no client directive (an empty file), and a malformed
 * directive. Immutable once read.
 */
final class LintFile {
  /** The largest file read: client configs are a few kilobytes. */
  static final int MAX_BYTES = 1 << 20;

  private static final Pattern DIRECTIVE =
      Pattern.compile("^\\s*[#!]\\s*routing-lint\\s*:\\s*(.*)$");
  private static final Pattern DISABLE =
      Pattern.compile("disable\\s*=\\s*([A-Za-z0-9,\\s]+?)\\s+reason\\s*=\\s*\"([^\"]+)\"\\s*");
  private static final Pattern CLIENT = Pattern.compile("client\\s*=\\s*([a-z0-9-]+)\\s*");

  final String name;
  private final Map<String, String> values;
  private final Map<String, Integer> lines;
  /** The client named by a {@code client=} directive, or null. */
  final String clientDirective;
  /** Silenced rule id to the reason given. */
  final Map<String, String> silenced;

  private LintFile(String name, Map<String, String> values, Map<String, Integer> lines,
      String clientDirective, Map<String, String> silenced) {
    this.name = name;
    this.values = Collections.unmodifiableMap(values);
    this.lines = Collections.unmodifiableMap(lines);
    this.clientDirective = clientDirective;
    this.silenced = Collections.unmodifiableMap(silenced);
  }

  /**
   * Reads {@code file}; {@code option} names the command-line option it came from, for messages.
   *
   * @throws KeyInput.InputException for a file that cannot be linted (see the class comment)
   */
  static LintFile read(Path file, String option) {
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw bad(option, file, "over " + MAX_BYTES + " bytes: not a client configuration");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw bad(option, file, "no such file");
    } catch (IOException e) {
      throw bad(option, file, e.toString());
    }
    return parse(file.toString(), option, bytes);
  }

  /** Parses the bytes of a file named {@code name} (for tests and {@link #read}). */
  static LintFile parse(String name, String option, byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        throw bad(option, name, "holds a NUL byte: a binary file, not a client configuration");
      }
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw bad(option, name, "not UTF-8 text");
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1); // a byte-order mark, which Properties would read into the first key
    }
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, Integer> lines = new LinkedHashMap<>();
    Map<String, String> silenced = new TreeMap<>();
    String client = null;
    String[] physical = text.split("\r\n|\r|\n", -1);
    for (int i = 0; i < physical.length; i++) {
      int first = i + 1;
      String line = physical[i];
      String trimmed = line.stripLeading();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (trimmed.charAt(0) == '#' || trimmed.charAt(0) == '!') {
        Matcher d = DIRECTIVE.matcher(line);
        if (d.matches()) {
          String body = d.group(1).trim();
          Matcher c = CLIENT.matcher(body);
          Matcher s = DISABLE.matcher(body);
          if (c.matches()) {
            client = c.group(1);
          } else if (s.matches()) {
            for (String id : s.group(1).split("[,\\s]+")) {
              if (LintRule.byId(id) == null) {
                throw bad(option, name, "line " + first + ": directive disables '" + id
                    + "', which is no rule (" + LintRule.RANGE + ")");
              }
              silenced.put(id, s.group(2).trim());
            }
          } else {
            throw bad(option, name, "line " + first + ": directive '" + body + "' must be"
                + " client=<client> or disable=<RKnnn[,RKnnn]> reason=\"<why>\"");
          }
        }
        continue;
      }
      // a logical line: physical lines joined while one ends in an odd number of backslashes
      StringBuilder logical = new StringBuilder(line);
      while (endsInOddBackslashes(physical[i]) && i + 1 < physical.length) {
        logical.append('\n').append(physical[++i]);
      }
      Properties one = new Properties();
      try {
        one.load(new StringReader(logical.toString()));
      } catch (IOException | IllegalArgumentException e) {
        throw bad(option, name, "line " + first + ": " + e.getMessage());
      }
      for (String k : one.stringPropertyNames()) {
        values.remove(k); // a repeated key: the last one counts, as in Properties
        values.put(k, one.getProperty(k));
        lines.put(k, first);
      }
    }
    if (values.isEmpty() && client == null) {
      throw bad(option, name, "holds no setting (an empty file?); to lint a client's defaults,"
          + " name the client: # routing-lint: client=<client>");
    }
    return new LintFile(name, values, lines, client, silenced);
  }

  private static boolean endsInOddBackslashes(String s) {
    int n = 0;
    for (int j = s.length() - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
      n++;
    }
    return n % 2 == 1;
  }

  private static KeyInput.InputException bad(String option, Object file, String why) {
    return new KeyInput.InputException("cannot lint " + option + " " + file + ": " + why);
  }

  /** Returns the trimmed value of {@code key}, or null if it is not set. */
  String get(String key) {
    String v = values.get(key);
    return v == null ? null : v.trim();
  }

  /** Returns whether {@code key} is set. */
  boolean has(String key) {
    return values.containsKey(key);
  }

  /** Returns the line {@code key} starts on (1-based), or 0 if it is not set. */
  int line(String key) {
    Integer l = lines.get(key);
    return l == null ? 0 : l;
  }

  /** Returns the first line among {@code keys} that is set, or 0 if none is. */
  int line(String... keys) {
    for (String k : keys) {
      if (lines.containsKey(k)) {
        return lines.get(k);
      }
    }
    return 0;
  }

  /** Returns every key, in file order. */
  Set<String> keys() {
    return values.keySet();
  }

  /** Returns the settings as (untrimmed) key to value. */
  Map<String, String> values() {
    return values;
  }

  /** Returns the settings as a Properties object. */
  Properties properties() {
    Properties p = new Properties();
    p.putAll(values);
    return p;
  }

  /** The keys of this file starting with {@code prefix}, in file order. */
  List<String> keysStartingWith(String prefix) {
    List<String> out = new ArrayList<>();
    for (String k : values.keySet()) {
      if (k.startsWith(prefix)) {
        out.add(k);
      }
    }
    return out;
  }

  /** Returns the integer value of {@code key}, {@code otherwise} if it is not set. */
  long longValue(String key, long otherwise) {
    String v = get(key);
    if (v == null) {
      return otherwise;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new KeyInput.InputException(name + ":" + line(key) + ": " + key + " was '" + v
          + "', must be an integer");
    }
  }

  /** Returns {@code key} read as a boolean ({@code true}/{@code false}, any case), or the default. */
  boolean bool(String key, boolean otherwise) {
    String v = get(key);
    return v == null ? otherwise : v.equalsIgnoreCase("true");
  }
}
