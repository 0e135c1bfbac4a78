package io.github.routingkit.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the Kafka and Pulsar switch runs share: the books ({@link SwitchRunCheck}), the counters
 * the reports print, the members by name (started, killed, stopped, slowed), and threads whose
 * failure is booked instead of lost.
 */
abstract class SwitchRunBase {
  /** One consumer of the group, on its own thread. */
  abstract static class RunMember {
    final String name;
    volatile boolean running = true;
    /** Stop without committing (Kafka) or acknowledging (Pulsar) what was handed over since. */
    volatile boolean kill;
    /** Business code takes this long per record: a lagging owner. */
    volatile long slowMillis;
    Thread thread;

    RunMember(String name) {
      this.name = name;
    }

    abstract void run();
  }

  final SwitchRunCheck check = new SwitchRunCheck();
  final AtomicInteger memberStarts = new AtomicInteger();
  final AtomicInteger kills = new AtomicInteger();
  final AtomicInteger producerRestarts = new AtomicInteger();
  final AtomicInteger maxWaiting = new AtomicInteger();
  private final Map<String, RunMember> members = new ConcurrentHashMap<>();
  private final List<Thread> threads = new ArrayList<>();
  private final String threadPrefix;

  SwitchRunBase(String threadPrefix) {
    this.threadPrefix = threadPrefix;
  }

  abstract RunMember newMember(String name);

  void startMember(String name) {
    RunMember m = newMember(name);
    if (members.putIfAbsent(name, m) != null) {
      throw new IllegalStateException(name + " runs");
    }
    memberStarts.incrementAndGet();
    m.thread = thread("member-" + name, m::run);
  }

  /** Stops a member without committing what it handed over since its last commit. */
  void kill(String name) throws InterruptedException {
    kills.incrementAndGet();
    end(name, true);
  }

  /** Stops a member gracefully: its revocation commits. */
  void stop(String name) throws InterruptedException {
    end(name, false);
  }

  /** Makes a member's business code take {@code millis} per record (0: full speed). */
  void slow(String name, long millis) {
    members.get(name).slowMillis = millis;
  }

  private void end(String name, boolean kill) throws InterruptedException {
    RunMember m = members.remove(name);
    m.kill = kill;
    m.running = false;
    m.thread.join(120_000);
  }

  /** Stops every member gracefully and waits for every thread. */
  void stopAll() throws InterruptedException {
    for (String name : new ArrayList<>(members.keySet())) {
      stop(name);
    }
    for (Thread t : threads) {
      t.join(60_000);
    }
  }

  Thread thread(String name, Runnable body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (RuntimeException e) {
        check.threadFailed(name, e);
      }
    }, threadPrefix + "-" + name);
    t.setDaemon(true);
    t.start();
    threads.add(t);
    return t;
  }

  static void sleep(long millis) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sleeps until {@code epochMillis} by this host's clock. */
  static void until(long epochMillis) {
    sleep(epochMillis - System.currentTimeMillis());
  }
}
