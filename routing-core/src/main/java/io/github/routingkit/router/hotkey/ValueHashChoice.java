package io.github.routingkit.router.hotkey;

import io.github.routingkit.hash.HashScheme;

/**
 * {@code value-hash}: the candidate at {@code murmur2(value) mod d}, a pure function of key and
 * value (a retried record gets the same partition); a {@code null} value takes the first
 * candidate. Stateless.
 */
final class ValueHashChoice extends CandidateChoice {
  @Override
  int choose(HotKeyCandidates.Space space, int base, int stride, int d, byte[] value) {
    int c = value == null ? 0 : Math.floorMod(HashScheme.KAFKA_MURMUR2.hash(value, 0, value.length), d);
    return HotKeyCandidates.candidate(base, stride, c, space.n);
  }
}
