package io.github.routingkit.cli;

import io.github.routingkit.KeyFormat;
import io.github.routingkit.hash.HashScheme;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code routing analyze} notices about keys written by a schema-registry serializer: how
 * many keys carry a wire-format header (magic byte {@code 0} and a schema id, read with the
 * spec's {@code routing.key.format}, else the Confluent layout), how many distinct schema ids they
 * name, and how many key values (the bytes behind the header) appear under several ids on
 * different partitions: the schema id is hashed with the key, so a new key schema version moved
 * them. Bounded memory: at most {@value #MAX_IDS} ids and {@value #MAX_VALUES} distinct values are
 * tracked (64-bit hashes of the values, not the values); past that the counts cover the values
 * seen first, and the report says so. Not thread-safe: one reader feeds it.
 */
final class SchemaIdScan {
  static final int MAX_IDS = 10_000;
  static final int MAX_VALUES = 200_000;

  private final KeyFormat format;
  private long keyed;
  private long withHeader;
  private final Map<Long, long[]> ids = new HashMap<>();
  private boolean idsCapped;
  /** value hash -> {first id, first partition, 1 if under several ids, 1 if also moved}. */
  private final Map<Long, long[]> values = new HashMap<>();
  private boolean valuesCapped;
  private long severalIds;
  private long moved;

  /** Scans with {@code format}'s header layout, or Confluent's for {@link KeyFormat#RAW}. */
  SchemaIdScan(KeyFormat format) {
    this.format = format.hasHeader() ? format : KeyFormat.CONFLUENT;
  }

  /** Counts one keyed message, its key's bytes {@code b}, that went (or would go) to {@code partition}. */
  void accept(byte[] b, int partition) {
    keyed++;
    if (!format.hasValidHeader(b, 0, b.length)) {
      return;
    }
    withHeader++;
    long id = format.schemaId(b, 0, b.length);
    long[] count = ids.get(id);
    if (count != null) {
      count[0]++;
    } else if (ids.size() < MAX_IDS) {
      ids.put(id, new long[] {1});
    } else {
      idsCapped = true;
    }
    int start = format.payloadStart(b, 0, b.length);
    long value = HashScheme.XXH3_64.hash64(b, start, b.length - start);
    long[] v = values.get(value);
    if (v == null) {
      if (values.size() < MAX_VALUES) {
        values.put(value, new long[] {id, partition, 0, 0});
      } else {
        valuesCapped = true;
      }
      return;
    }
    if (id != v[0]) {
      if (v[2] == 0) {
        v[2] = 1;
        severalIds++;
      }
      if (partition != v[1] && v[3] == 0) {
        v[3] = 1;
        moved++;
      }
    }
  }

  /** Whether any key carried a header (the report shows the section only then). */
  boolean found() {
    return withHeader > 0;
  }

  /** Values under several ids on different partitions. */
  long moved() {
    return moved;
  }

  /** The ids, most frequent first, as "id (count)". */
  private String topIds(int limit) {
    StringBuilder sb = new StringBuilder();
    ids.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]))
        .limit(limit)
        .forEach(e -> sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey())
            .append(String.format(Locale.ROOT, " (%,d)", e.getValue()[0])));
    return ids.size() > limit ? sb + ", ..." : sb.toString();
  }

  /** The text section, or "" when no key carried a header. */
  String toText() {
    if (!found()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "schema-registry   %,d of %,d keyed messages carry a %s"
        + " header; %,d%s distinct schema id%s: %s%n", withHeader, keyed, format.id(), ids.size(),
        idsCapped ? "+" : "", ids.size() == 1 ? "" : "s", topIds(5)));
    sb.append(String.format(Locale.ROOT, "                  %,d key value%s under several schema"
        + " ids, %,d of them on different partitions%s%n", severalIds, severalIds == 1 ? "" : "s",
        moved, valuesCapped ? " (among the first " + MAX_VALUES + " distinct values)" : ""));
    if (moved > 0) {
      sb.append("                  the schema id is hashed with the key: a new key schema version"
          + " moved these values; routing.key.format=" + format.id() + " hashes the value alone"
          + " (see docs/compatibility.md#schema-registry-keys)\n");
    }
    return sb.toString();
  }

  /** The JSON fields of the section (for the reports' "schemaRegistry" object). */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", format.id());
    m.put("keyed", keyed);
    m.put("withHeader", withHeader);
    m.put("distinctSchemaIds", ids.size());
    m.put("schemaIdsCapped", idsCapped);
    m.put("valuesUnderSeveralIds", severalIds);
    m.put("valuesOnDifferentPartitions", moved);
    m.put("valuesCapped", valuesCapped);
    return m;
  }
}
