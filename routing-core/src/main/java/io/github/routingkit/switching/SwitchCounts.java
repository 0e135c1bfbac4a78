package io.github.routingkit.switching;

/** What a {@link MemberBarrier} did so far, for metrics and logs: an immutable snapshot. */
public final class SwitchCounts {
  private final long[] v;

  SwitchCounts(long... v) {
    this.v = v;
  }

  /** Markers ignored, all verdicts. */
  public long ignoredMarkers() {
    return v[0];
  }

  /** Records of moving keys read on their old partition after its marker of their step. */
  public long lateRecords() {
    return v[1];
  }

  /** Records of moving keys on a partition neither old nor new for them. */
  public long unplannedRecords() {
    return v[2];
  }

  /** Times a partition was rewound because hold and skip list were full. */
  public long rewinds() {
    return v[3];
  }

  /** Records dropped at or after a rewind point, or read again after they were decided. */
  public long droppedRecords() {
    return v[4];
  }

  @Override
  public String toString() {
    return "SwitchCounts[ignoredMarkers=" + v[0] + ", lateRecords=" + v[1] + ", unplannedRecords="
        + v[2] + ", rewinds=" + v[3] + ", droppedRecords=" + v[4] + "]";
  }
}
