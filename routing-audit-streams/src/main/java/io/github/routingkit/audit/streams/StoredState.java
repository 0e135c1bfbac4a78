package io.github.routingkit.audit.streams;

import io.github.routingkit.audit.AuditLog;
import io.github.routingkit.audit.KeyStreamState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A key stream's state as the state store holds it: 8 bytes last-seen observation time
 * (big-endian epoch ms), 1 byte flags (bit 0: the stream had a pair), then the UTF-8 audit line
 * of the record with the highest sequence.
 */
final class StoredState {
  final KeyStreamState state;
  long lastSeenMillis;

  StoredState(KeyStreamState state, long lastSeenMillis) {
    this.state = state;
    this.lastSeenMillis = lastSeenMillis;
  }

  byte[] encode() {
    byte[] line = AuditLog.line(state.latest()).getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(9 + line.length).putLong(lastSeenMillis)
        .put((byte) (state.reported() ? 1 : 0)).put(line).array();
  }

  static StoredState decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long lastSeen = b.getLong();
    boolean reported = (b.get() & 1) != 0;
    String line = new String(bytes, 9, bytes.length - 9, StandardCharsets.UTF_8);
    return new StoredState(new KeyStreamState(AuditLog.parse(line), reported), lastSeen);
  }

  /** Reads only the last-seen time (the retention scan). */
  static long lastSeen(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getLong();
  }
}
