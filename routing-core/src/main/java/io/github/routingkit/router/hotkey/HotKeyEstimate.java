package io.github.routingkit.router.hotkey;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A key detected hot right now, with its estimated share of the messages its detector counted
 * (a Space-Saving summary with decay, see {@link HotKeyRouter}): {@link #share()} over-estimates
 * the true share by at most {@link #maxError()}, so the true share lies in
 * {@code [share() - maxError(), share()]} (plus sampling noise when the detector samples).
 *
 * <p>Immutable and thread-safe.
 */
public final class HotKeyEstimate {
  private final byte[] key;
  private final String text;
  private final double share;
  private final double maxError;

  HotKeyEstimate(byte[] key, String text, double share, double maxError) {
    this.key = key;
    this.text = text;
    this.share = share;
    this.maxError = maxError;
  }

  /**
   * Returns the key's bytes (a copy; UTF-8 of a text key), or null while the detector has not yet
   * seen a message of the key since the key became hot (it learns a hot key's bytes from the next
   * counted message of it).
   */
  public byte[] key() {
    return key == null ? (text == null ? null : text.getBytes(StandardCharsets.UTF_8))
        : key.clone();
  }

  /**
   * Returns the key as text: a text key as given, key bytes decoded as UTF-8 (malformed bytes
   * become U+FFFD), or null while the key's bytes are not known yet (see {@link #key()}).
   */
  public String keyText() {
    return text != null ? text : key == null ? null : new String(key, StandardCharsets.UTF_8);
  }

  /** Returns the estimated share of the counted messages, in (0, 1]; at least the true share. */
  public double share() {
    return share;
  }

  /** Returns the most {@link #share()} may exceed the true share by, in [0, share()]. */
  public double maxError() {
    return maxError;
  }

  /** Returns the share the key is guaranteed to have at least: {@code share() - maxError()}. */
  public double minShare() {
    return share - maxError;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof HotKeyEstimate)) {
      return false;
    }
    HotKeyEstimate e = (HotKeyEstimate) o;
    return Arrays.equals(key, e.key) && java.util.Objects.equals(text, e.text)
        && Double.compare(share, e.share) == 0 && Double.compare(maxError, e.maxError) == 0;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(key) + java.util.Objects.hashCode(text))
        + Double.hashCode(share);
  }

  @Override
  public String toString() {
    return "HotKeyEstimate{key=" + keyText() + ", share=" + share + ", maxError=" + maxError + '}';
  }
}
