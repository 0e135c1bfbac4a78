package io.github.routingkit;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How the key bytes are laid out, and so which of them a router hashes: all of them
 * ({@link #RAW}), or the payload behind a schema-registry wire-format header, so that a key keeps
 * its partition when its schema gets a new id. A compatible change of a key schema (even a new
 * doc comment) registers a new schema id, and the serializers write that id into every key: hashed
 * whole, the same key value then moves to another partition. The header formats skip the id (and
 * Protobuf's message indexes or type name) and hash the serialized value alone.
 *
 * <p><b>Keys without a valid header</b> are hashed whole, exactly as {@link #RAW} would: a key too
 * short for the header, a first byte that is not the magic byte {@code 0}, or Protobuf framing that
 * is malformed, truncated or longer than the key. This never throws and never depends on anything
 * but the key bytes, so such keys still land deterministically (where a producer without this
 * setting puts them).
 *
 * <p>Formats (ids as in {@code routing.key.format}):
 * <ul>
 *   <li>{@link #CONFLUENT}: {@code 0x00}, a 4-byte big-endian schema id, the payload. Confluent's
 *       Avro and JSON Schema serializers; Apicurio Registry 3's serializers with their default id
 *       handler ({@code Default4ByteIdHandler}) for Avro and JSON Schema.</li>
 *   <li>{@link #CONFLUENT_PROTOBUF}: {@code 0x00}, the 4-byte id, the message indexes (a
 *       zig-zag varint count, then that many zig-zag varint indexes; a count of 0 means the first
 *       message, {@code [0]}), the payload. Confluent's Protobuf serializer.</li>
 *   <li>{@link #APICURIO_PROTOBUF}: {@code 0x00}, the 4-byte id, a length-delimited {@code Ref}
 *       message naming the message type, the payload. Apicurio Registry 3's Protobuf serializer
 *       with its defaults.</li>
 *   <li>{@link #APICURIO_LEGACY}: {@code 0x00}, an 8-byte big-endian global id, the payload.
 *       Apicurio Registry 2's serializers with headers disabled (the global id, or the content id
 *       with {@code apicurio.registry.use-id=contentId}; and 3's {@code Legacy8ByteIdHandler}),
 *       Avro and JSON Schema.</li>
 *   <li>{@link #APICURIO_LEGACY_PROTOBUF}: {@code 0x00}, the 8-byte id, the delimited
 *       {@code Ref}, the payload. Apicurio Registry 2's Protobuf serializer.</li>
 * </ul>
 * Sources: Confluent's "Wire format" section of the Schema Registry documentation
 * (docs.confluent.io, "Formats, Serializers, and Deserializers"); Apicurio Registry's serdes
 * ({@code Default4ByteIdHandler}, {@code Legacy8ByteIdHandler}, {@code ProtobufSerializer}). The
 * header parsing is held to the bytes Confluent's own JavaScript serializers
 * ({@code @confluentinc/schemaregistry}) write, by the cross-client vectors, and to the keys
 * Apicurio Registry 2.6's Avro serializer writes (8-byte global and content ids, and its
 * Confluent-compatible 4-byte ids), by a differential test of the Kafka adapter. Apicurio 2's
 * serializers write the id into the key bytes only with
 * {@code apicurio.registry.headers.enabled=false}; by default they put it in a record header and
 * the key bytes are the payload ({@link #RAW}).
 *
 * <p>Parsing never allocates and reads at most the header. Thread-safety: stateless.
 */
public enum KeyFormat {

  /** The whole key is hashed: what every client does. The default. */
  RAW("raw", 0, Framing.NONE),

  /** Confluent wire format (Avro, JSON Schema): magic byte and 4-byte schema id. */
  CONFLUENT("confluent", 4, Framing.NONE),

  /** Confluent wire format for Protobuf: magic byte, 4-byte schema id, message indexes. */
  CONFLUENT_PROTOBUF("confluent-protobuf", 4, Framing.MESSAGE_INDEXES),

  /** Apicurio Registry 3 Protobuf: magic byte, 4-byte id, delimited {@code Ref} message. */
  APICURIO_PROTOBUF("apicurio-protobuf", 4, Framing.DELIMITED_REF),

  /** Apicurio Registry 2 (8-byte ids), Avro and JSON Schema: magic byte and 8-byte global id. */
  APICURIO_LEGACY("apicurio-legacy", 8, Framing.NONE),

  /** Apicurio Registry 2 Protobuf: magic byte, 8-byte global id, delimited {@code Ref} message. */
  APICURIO_LEGACY_PROTOBUF("apicurio-legacy-protobuf", 8, Framing.DELIMITED_REF);

  /** The first byte of every schema-registry wire-format header. */
  public static final byte MAGIC_BYTE = 0;

  /** What follows the schema id before the payload. */
  private enum Framing { NONE, MESSAGE_INDEXES, DELIMITED_REF }

  private final String id;
  private final int idBytes;
  private final Framing framing;

  KeyFormat(String id, int idBytes, Framing framing) {
    this.id = id;
    this.idBytes = idBytes;
    this.framing = framing;
  }

  /** Returns the identifier used in {@code routing.key.format}, e.g. {@code confluent}. */
  public String id() {
    return id;
  }

  /** Whether keys of this format carry a header before the payload (every format but {@link #RAW}). */
  public boolean hasHeader() {
    return this != RAW;
  }

  /**
   * Returns the index in {@code key} where the bytes to hash start: just behind a valid header, or
   * {@code offset} when the format has none or the key does not carry a valid one (see the class
   * comment). The bytes to hash are {@code [result, offset + length)}.
   *
   * @return an index in {@code [offset, offset + length]}
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public int payloadStart(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    int start = headerEnd(key, offset, offset + length);
    return start < 0 ? offset : start;
  }

  /**
   * Whether the {@code length} bytes of {@code key} from {@code offset} carry a valid header of
   * this format (always false for {@link #RAW}).
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public boolean hasValidHeader(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    return headerEnd(key, offset, offset + length) >= 0;
  }

  /**
   * Returns the schema id in a valid header (for the 4-byte formats read as a signed big-endian
   * {@code int}, as the serializers write it), or {@code -1} if the key carries none. Keys whose id
   * is itself {@code -1} cannot be told apart: registries hand out positive ids.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code key}
   */
  public long schemaId(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    if (headerEnd(key, offset, offset + length) < 0) {
      return -1;
    }
    long v = 0;
    for (int i = offset + 1; i <= offset + idBytes; i++) {
      v = v << 8 | (key[i] & 0xFF);
    }
    return idBytes == 4 ? (int) v : v;
  }

  /** The index behind the header in {@code key[from, to)}, or -1 if there is no valid header. */
  private int headerEnd(byte[] key, int from, int to) {
    if (idBytes == 0 || to - from < 1 + idBytes || key[from] != MAGIC_BYTE) {
      return -1;
    }
    int p = from + 1 + idBytes;
    switch (framing) {
      case MESSAGE_INDEXES: {
        long count = zigZagVarint(key, p, to);
        if (count < 0) {
          return -1;
        }
        p += (int) (count >>> 32);
        long n = (int) count;
        if (n < 0 || n > to - p) {
          return -1; // negative, or more indexes than bytes left (each takes at least one)
        }
        for (long i = 0; i < n; i++) {
          long index = zigZagVarint(key, p, to);
          if (index < 0 || (int) index < 0) {
            return -1;
          }
          p += (int) (index >>> 32);
        }
        return p;
      }
      case DELIMITED_REF: {
        long len = varint(key, p, to);
        if (len < 0) {
          return -1;
        }
        p += (int) (len >>> 32);
        int refLength = (int) len;
        return refLength < 0 || refLength > to - p ? -1 : p + refLength;
      }
      default:
        return p;
    }
  }

  /*
   * The varint readers return the value in the low 32 bits and the number of bytes read in the high
   * 32 bits, or -1 for a varint that is truncated or longer than 5 bytes (more than 32 bits): no
   * allocation, one long.
   */

  /** An unsigned (protobuf) varint of at most 32 bits. */
  private static long varint(byte[] b, int p, int to) {
    int value = 0;
    for (int i = 0; i < 5; i++) {
      if (p + i >= to) {
        return -1;
      }
      int v = b[p + i];
      value |= (v & 0x7F) << (7 * i);
      if (v >= 0) {
        if (i == 4 && (v & 0x70) != 0) {
          return -1; // bits beyond 32
        }
        return (long) (i + 1) << 32 | (value & 0xFFFFFFFFL);
      }
    }
    return -1;
  }

  /** A zig-zag varint (Kafka's {@code ByteUtils.readVarint}), as written by Confluent's serializer. */
  private static long zigZagVarint(byte[] b, int p, int to) {
    long raw = varint(b, p, to);
    if (raw < 0) {
      return -1;
    }
    int u = (int) raw;
    int value = (u >>> 1) ^ -(u & 1);
    return (raw & 0xFFFFFFFF00000000L) | (value & 0xFFFFFFFFL);
  }

  /**
   * Returns the format with the given {@link #id()}.
   *
   * @throws IllegalArgumentException if no format has that identifier
   */
  public static KeyFormat fromId(String id) {
    for (KeyFormat f : values()) {
      if (f.id.equals(id)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown key format '" + id + "', must be one of " + ids());
  }

  /** Returns the identifiers of all formats, in declaration order, e.g. for error messages. */
  public static String ids() {
    return Arrays.stream(values()).map(KeyFormat::id).collect(Collectors.joining(", ", "[", "]"));
  }
}
