package io.github.routingkit.audit.streams;

import io.github.routingkit.audit.AuditFinding;
import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.AuditLogException;
import io.github.routingkit.audit.AuditRecord;
import io.github.routingkit.audit.KeyStreamState;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The audit processor of one task (input partition); see {@link ContinuousAudit} for what it
 * does. The rules are {@link KeyStreamState}'s.
 */
final class OrderingAuditProcessor implements Processor<String, String, String, String> {
  private static final String STREAM_TIME = "stream-time";
  private static final String RELEASED = "released-up-to";
  private static final int CHUNK = 10_000;

  private final ContinuousAudit audit;
  private ProcessorContext<String, String> context;
  private KeyValueStore<String, byte[]> streams;
  private KeyValueStore<Bytes, String> buffer;
  private KeyValueStore<String, Long> meta;
  private AtomicLongArray counts;
  private String task;
  private long streamTime;
  private long releasedUpTo;
  private long arrivals;

  OrderingAuditProcessor(ContinuousAudit audit) {
    this.audit = audit;
  }

  @Override
  public void init(ProcessorContext<String, String> context) {
    this.context = context;
    this.streams = context.getStateStore(ContinuousAudit.STATE_STORE);
    this.buffer = context.getStateStore(ContinuousAudit.BUFFER_STORE);
    this.meta = context.getStateStore(ContinuousAudit.META_STORE);
    this.task = context.taskId().toString();
    this.counts = audit.totals().register(task);
    for (int i = 0; i < AuditTotals.NAMES.length; i++) {
      Long v = meta.get(AuditTotals.NAMES[i]);
      counts.set(i, v == null ? 0 : v);
    }
    streamTime = orDefault(meta.get(STREAM_TIME), Long.MIN_VALUE);
    releasedUpTo = orDefault(meta.get(RELEASED), Long.MIN_VALUE);
    registerMetrics();
    context.schedule(audit.releaseInterval(), PunctuationType.WALL_CLOCK_TIME,
        now -> release(Math.max(streamTime, now)));
    context.schedule(audit.retentionScan(), PunctuationType.WALL_CLOCK_TIME, now -> expire());
  }

  private static long orDefault(Long v, long d) {
    return v == null ? d : v;
  }

  @Override
  public void process(Record<String, String> event) {
    AuditRecord r;
    try {
      r = event.value() == null ? null : AuditLog.parse(event.value());
    } catch (AuditLogException e) {
      r = null;
    }
    if (r == null) {
      add(AuditTotals.BAD, 1);
      return;
    }
    long ot = r.observedAtMillis();
    if (ot <= releasedUpTo) {
      if (ot < releasedUpTo) {
        add(AuditTotals.LATE, 1);
      }
      apply(r);
    } else {
      long offset = context.recordMetadata().map(m -> m.offset()).orElse(arrivals);
      arrivals++;
      buffer.put(bufferKey(ot, offset), event.value());
    }
    if (ot > streamTime) {
      streamTime = ot;
      meta.put(STREAM_TIME, streamTime);
    }
    release(streamTime);
  }

  /** Applies, in (observation time, offset) order, every buffered event up to now - grace. */
  private void release(long now) {
    long grace = audit.grace().toMillis();
    if (now < Long.MIN_VALUE + grace + 1) {
      return; // nothing seen yet
    }
    long bound = now - grace;
    if (bound <= releasedUpTo) {
      return;
    }
    // every buffered event is newer than releasedUpTo (older ones were applied on arrival), so
    // the scan starts there and never walks over the deletions of events already applied
    Bytes from = bufferKey(releasedUpTo == Long.MIN_VALUE ? Long.MIN_VALUE : releasedUpTo + 1, 0);
    Bytes to = bufferKey(bound, Long.MAX_VALUE);
    while (true) {
      List<KeyValue<Bytes, String>> chunk = new ArrayList<>();
      try (KeyValueIterator<Bytes, String> it = buffer.range(from, to)) {
        while (it.hasNext() && chunk.size() < CHUNK) {
          chunk.add(it.next());
        }
      }
      for (KeyValue<Bytes, String> kv : chunk) {
        buffer.delete(kv.key);
        apply(AuditLog.parse(kv.value));
      }
      if (chunk.size() < CHUNK) {
        break;
      }
    }
    releasedUpTo = bound;
    meta.put(RELEASED, releasedUpTo);
  }

  /** The batch audit's step for one record ({@code OrderingAudit.accept}), on the store. */
  private void apply(AuditRecord r) {
    add(AuditTotals.RECORDS, 1);
    String id = KeyStreamState.streamId(r);
    byte[] stored = streams.get(id);
    if (stored == null) {
      streams.put(id, new StoredState(new KeyStreamState(r), r.observedAtMillis()).encode());
      add(AuditTotals.STREAMS, 1);
      return;
    }
    StoredState s = StoredState.decode(stored);
    KeyStreamState.Observation o = s.state.observe(r);
    s.lastSeenMillis = Math.max(s.lastSeenMillis, r.observedAtMillis());
    streams.put(id, s.encode());
    if (o == KeyStreamState.Observation.DUPLICATE) {
      add(AuditTotals.DUPLICATES, 1);
      return;
    }
    AuditFinding f = o.finding();
    if (f == null) {
      return;
    }
    add(AuditTotals.PAIRS, 1);
    add(AuditTotals.cause(f.cause()), 1);
    if (o.firstPairOfStream()) {
      add(AuditTotals.KEYS_WITH_PAIRS, 1);
    }
    context.forward(new Record<>(r.key(), AuditLog.findingLine(f), r.observedAtMillis()));
    audit.pairFound(f);
  }

  /** Forgets the streams not seen for the retention (of stream time). */
  private void expire() {
    if (streamTime == Long.MIN_VALUE) {
      return;
    }
    long cutoff = streamTime - audit.retention().toMillis();
    List<String> old = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it = streams.all()) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> kv = it.next();
        if (StoredState.lastSeen(kv.value) < cutoff) {
          old.add(kv.key);
        }
      }
    }
    for (String id : old) {
      streams.delete(id);
    }
    add(AuditTotals.EXPIRED, old.size());
  }

  private void add(int index, long delta) {
    if (delta != 0) {
      long v = counts.addAndGet(index, delta);
      meta.put(AuditTotals.NAMES[index], v);
    }
  }

  /** 16 bytes that sort as (observation time, offset): sign-flipped time, then the offset. */
  static Bytes bufferKey(long observedAt, long offset) {
    return Bytes.wrap(ByteBuffer.allocate(16).putLong(observedAt ^ Long.MIN_VALUE)
        .putLong(offset).array());
  }

  private void registerMetrics() {
    Sensor sensor = context.metrics().addSensor(ContinuousAudit.METRIC_GROUP + "-"
        + audit.instance(), Sensor.RecordingLevel.INFO);
    Map<String, String> tags = Map.of("instance", audit.instance());
    AuditTotals totals = audit.totals();
    for (int i = 0; i < AuditTotals.NAMES.length; i++) {
      int index = i;
      sensor.add(new MetricName(AuditTotals.NAMES[i] + "-total", ContinuousAudit.METRIC_GROUP,
          "The ordering audit's running total of " + AuditTotals.NAMES[i]
          + " over this instance's tasks", tags), new MeasurableStat() {
            @Override
            public void record(MetricConfig config, double value, long timeMs) {
              // measured from the totals, never recorded
            }

            @Override
            public double measure(MetricConfig config, long now) {
              return totals.sum(index);
            }
          });
    }
  }

  @Override
  public void close() {
    audit.totals().unregister(task, counts);
  }
}
