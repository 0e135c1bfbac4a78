package io.github.routingkit.router.hotkey;

/**
 * {@code round-robin}: the next candidate in a cycle, one cycle counter per {@link Stripes stripe}
 * of routing threads (so threads do not share it).
 */
final class RoundRobinChoice extends CandidateChoice {
  private final long[] cycles = Stripes.cells(0);

  @Override
  int choose(HotKeyCandidates.Space space, int base, int stride, int d, byte[] value) {
    int index = Stripes.cell();
    long c = (long) Stripes.LONGS.getOpaque(cycles, index);
    Stripes.LONGS.setOpaque(cycles, index, c + 1);
    return HotKeyCandidates.candidate(base, stride, (int) Math.floorMod(c, (long) d), space.n);
  }
}
