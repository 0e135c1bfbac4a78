package io.github.routingkit.examples.audit;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy in front of one Kafka broker that fails one produce request the way a damaged
 * network would: the first produce request holding {@code marker} gets one byte of the marker
 * flipped, so the broker finds the batch's CRC wrong and answers CORRUPT_MESSAGE (a retriable
 * error, nothing written). The answer is held back until four more produce requests went through,
 * so the producer has later batches in flight when it learns of the failure, as on a slow link.
 * Metadata answers are rewritten to name the proxy instead of the broker, so every request of a
 * client bootstrapped here goes through it. Test code: Kafka's framing (a 4-byte size, then the
 * api key and correlation id) is all it reads.
 */
final class FaultInjectingProxy implements AutoCloseable {
  private static final short PRODUCE = 0;
  private static final short METADATA = 3;
  private static final long HOLD_MILLIS = 5_000;

  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final byte[] marker;
  private final AtomicBoolean corrupted = new AtomicBoolean();
  private final List<Socket> sockets = new ArrayList<>();
  private volatile boolean closed;

  FaultInjectingProxy(String target, String marker) throws IOException {
    String[] hp = target.split(":");
    this.targetHost = hp[0];
    this.targetPort = Integer.parseInt(hp[1]);
    this.marker = marker.getBytes(StandardCharsets.UTF_8);
    this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    Thread accept = new Thread(this::accept, "fault-proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** The address clients bootstrap from. */
  String bootstrap() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  /** Whether the produce request was damaged (once). */
  boolean corrupted() {
    return corrupted.get();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket broker = new Socket(targetHost, targetPort);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(broker);
        }
        Connection c = new Connection();
        start(() -> c.toBroker(client, broker), "fault-proxy-c2b");
        start(() -> c.toClient(broker, client), "fault-proxy-b2c");
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void start(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  /** One client connection: which answers to rewrite, and which one to hold. */
  private final class Connection {
    final Set<Integer> metadataRequests = ConcurrentHashMap.newKeySet();
    volatile int held = -1;
    volatile int producesAfter;

    void toBroker(Socket from, Socket to) {
      try (DataInputStream in = new DataInputStream(from.getInputStream());
           DataOutputStream out = new DataOutputStream(to.getOutputStream())) {
        while (true) {
          byte[] frame = frame(in);
          ByteBuffer b = ByteBuffer.wrap(frame);
          short apiKey = b.getShort(0);
          int correlation = b.getInt(4);
          if (apiKey == METADATA) {
            metadataRequests.add(correlation);
          } else if (apiKey == PRODUCE) {
            int at = indexOf(frame, marker);
            if (at >= 0 && corrupted.compareAndSet(false, true)) {
              frame[at + marker.length - 1] ^= 0x01;
              held = correlation;
            } else if (held >= 0) {
              synchronized (this) {
                producesAfter++;
                notifyAll();
              }
            }
          }
          out.writeInt(frame.length);
          out.write(frame);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // a side closed: the connection ends
      }
    }

    void toClient(Socket from, Socket to) {
      try (DataInputStream in = new DataInputStream(from.getInputStream());
           DataOutputStream out = new DataOutputStream(to.getOutputStream())) {
        while (true) {
          byte[] frame = frame(in);
          int correlation = ByteBuffer.wrap(frame).getInt(0);
          if (metadataRequests.remove(correlation)) {
            rewritePort(frame);
          }
          if (correlation == held) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS);
            synchronized (this) {
              while (producesAfter < 4 && System.nanoTime() < until) {
                wait(100);
              }
            }
          }
          out.writeInt(frame.length);
          out.write(frame);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // a side closed: the connection ends
      }
    }
  }

  private static byte[] frame(DataInputStream in) throws IOException, InterruptedException {
    int size = in.readInt();
    if (size < 8 || size > 64 << 20) {
      throw new IOException("not a Kafka frame: size " + size);
    }
    byte[] frame = new byte[size];
    in.readFully(frame);
    return frame;
  }

  /** Replaces the broker's port after its host in a metadata answer by the proxy's. */
  private void rewritePort(byte[] frame) {
    byte[] host = targetHost.getBytes(StandardCharsets.UTF_8);
    for (int at = indexOf(frame, host, 0); at >= 0; at = indexOf(frame, host, at + 1)) {
      int p = at + host.length;
      if (p + 4 <= frame.length && ByteBuffer.wrap(frame).getInt(p) == targetPort) {
        ByteBuffer.wrap(frame).putInt(p, server.getLocalPort());
      }
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    return indexOf(haystack, needle, 0);
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    synchronized (sockets) {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }
}
