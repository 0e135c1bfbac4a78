package io.github.routingkit.testbrokers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Test helper: whether something accepts connections on host:port. */
final class PortProbe {
  private PortProbe() {}

  static boolean listening(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(hostPort.substring(0, colon),
          Integer.parseInt(hostPort.substring(colon + 1))), 1_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
