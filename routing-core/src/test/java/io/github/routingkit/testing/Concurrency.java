package io.github.routingkit.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs a check on several threads at once and reports the first failure. */
public final class Concurrency {
  private Concurrency() {}

  /** Runs {@code task(thread)} on 8 threads; returns the first failure it reports, or null. */
  public static String onEightThreads(java.util.function.IntFunction<String> task)
      throws Exception {
    ExecutorService ex = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> fs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        fs.add(ex.submit(() -> task.apply(thread)));
      }
      for (Future<String> f : fs) {
        String failure = f.get();
        if (failure != null) {
          return failure;
        }
      }
      return null;
    } finally {
      ex.shutdownNow();
    }
  }
}
