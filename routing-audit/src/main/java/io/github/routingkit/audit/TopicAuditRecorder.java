package io.github.routingkit.audit;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;

/**
 * A recorder that ships audit records to a topic, keyed by the message's logical key so that all
 * records of one key meet in one partition, without ever blocking or failing the application's
 * own send or poll.
 *
 * <p>{@link #record} only offers the record to a bounded queue ({@code capacity} records): when
 * the queue is full the record is <b>dropped and counted</b> ({@link #dropped()}), the
 * application's message is untouched. One daemon thread per recorder drains the queue into the
 * topic's client; a send that fails is counted ({@link #failed()}). A dropped audit record can
 * hide a pair from the audit, never make a false one (a pair needs both of its records). The
 * counts are also published as the JMX MBean
 * {@code io.github.routingkit.audit:type=TopicAuditRecorder,name=<name>} (attributes
 * {@code Queued}, {@code Sent}, {@code Dropped}, {@code Failed}).
 *
 * <p>Event format: key = the UTF-8 of {@link AuditRecord#key()}, value = the UTF-8 of its
 * {@link AuditLog} line, timestamp = {@link AuditRecord#observedAtMillis()}. Thread-safe.
 */
public abstract class TopicAuditRecorder implements AuditRecorder {
  /** Default of the queue's capacity, in records. */
  public static final int DEFAULT_CAPACITY = 10_000;

  private final String name;
  private final ArrayBlockingQueue<AuditRecord> queue;
  private final AtomicLong queued = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final Thread sender;
  private final ObjectName mbean;
  private volatile boolean closing;
  private volatile boolean flushRequested;

  /**
   * Starts the sender thread.
   *
   * @param name names the thread and the MBean (e.g. the topic)
   * @param capacity the queue's capacity in records, at least 1
   * @throws IllegalArgumentException if {@code capacity < 1}
   */
  protected TopicAuditRecorder(String name, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("audit buffer capacity must be >= 1, was " + capacity);
    }
    this.name = name;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.mbean = register(name);
    this.sender = new Thread(this::drain, "routingkit-audit-" + name);
    sender.setDaemon(true);
  }

  /** Starts the sender thread; subclasses call it at the end of their constructor. */
  protected final void start() {
    sender.start();
  }

  /** Offers the record to the queue; drops and counts it when the queue is full. Never blocks. */
  @Override
  public final void record(AuditRecord record) {
    if (record == null || closing) {
      return;
    }
    if (queue.offer(record)) {
      queued.incrementAndGet();
    } else {
      dropped.incrementAndGet();
    }
  }

  /** Asks the sender thread to flush the client soon; never blocks. */
  @Override
  public final void flush() {
    flushRequested = true;
  }

  /**
   * Sends what is queued (waiting at most {@code drainTimeoutMillis()} for it), then closes the
   * client. Later records are ignored.
   */
  @Override
  public final void close() {
    if (closing) {
      return;
    }
    closing = true;
    try {
      sender.join(drainTimeoutMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sender.interrupt();
    closeClient();
    unregister();
  }

  private void drain() {
    try {
      while (true) {
        AuditRecord r = queue.poll(100, TimeUnit.MILLISECONDS);
        if (r == null) {
          if (flushRequested) {
            flushRequested = false;
            flushClient();
          }
          if (closing) {
            flushClient();
            return;
          }
          continue;
        }
        try {
          send(r.key(), AuditLog.line(r).getBytes(StandardCharsets.UTF_8), r.observedAtMillis());
        } catch (RuntimeException e) {
          failed.incrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      // closing
    }
  }

  /**
   * Sends one event asynchronously from the sender thread; reports its outcome with
   * {@link #sent(boolean)}. May block (a full client buffer): only the sender thread waits.
   *
   * @param key the event key: the logical key ({@link AuditRecord#key()})
   * @param value the event value (the audit line's UTF-8)
   * @param timestamp the observation time, epoch ms
   */
  protected abstract void send(String key, byte[] value, long timestamp);

  /** Flushes the client (from the sender thread). */
  protected abstract void flushClient();

  /** Closes the client, after the queue was drained. */
  protected abstract void closeClient();

  /** How long {@link #close()} waits for the queue to drain, in ms. */
  protected long drainTimeoutMillis() {
    return 10_000;
  }

  /** Counts one send outcome; subclasses call it from their client's callback. */
  protected final void sent(boolean ok) {
    (ok ? sent : failed).incrementAndGet();
  }

  /** Returns the records accepted into the queue so far. */
  public final long queued() {
    return queued.get();
  }

  /** Returns the records the topic acknowledged so far. */
  public final long sent() {
    return sent.get();
  }

  /** Returns the records dropped because the queue was full. */
  public final long dropped() {
    return dropped.get();
  }

  /** Returns the records whose send failed. */
  public final long failed() {
    return failed.get();
  }

  /** Returns the records waiting in the queue. */
  public final int backlog() {
    return queue.size();
  }

  /** Returns the name given at creation. */
  public final String name() {
    return name;
  }

  /** The JMX view of a recorder's counts. */
  public interface StatsMBean {
    /** Returns {@link TopicAuditRecorder#queued()}. */
    long getQueued();

    /** Returns {@link TopicAuditRecorder#sent()}. */
    long getSent();

    /** Returns {@link TopicAuditRecorder#dropped()}. */
    long getDropped();

    /** Returns {@link TopicAuditRecorder#failed()}. */
    long getFailed();
  }

  private final class Stats implements StatsMBean {
    @Override
    public long getQueued() {
      return queued();
    }

    @Override
    public long getSent() {
      return sent();
    }

    @Override
    public long getDropped() {
      return dropped();
    }

    @Override
    public long getFailed() {
      return failed();
    }
  }

  private ObjectName register(String name) {
    try {
      ObjectName on = new ObjectName("io.github.routingkit.audit:type=TopicAuditRecorder,name="
          + ObjectName.quote(name + "@" + Integer.toHexString(System.identityHashCode(this))));
      ManagementFactory.getPlatformMBeanServer().registerMBean(
          new javax.management.StandardMBean(new Stats(), StatsMBean.class), on);
      return on;
    } catch (Exception | LinkageError e) {
      return null; // no JMX (or a name clash): the counts are still on the recorder
    }
  }

  private void unregister() {
    if (mbean != null) {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(mbean);
      } catch (Exception e) {
        // already gone
      }
    }
  }
}
