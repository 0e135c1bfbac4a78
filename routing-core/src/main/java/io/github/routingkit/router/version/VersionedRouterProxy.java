package io.github.routingkit.router.version;

import io.github.routingkit.router.version.VersionedRouter.Generation;
import io.github.routingkit.router.version.VersionedRouter.Source;
import java.io.InvalidObjectException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The serialized form of a {@link VersionedRouter}: its configuration, rebuilt through the same
 * checks.
 */
final class VersionedRouterProxy implements Serializable {
  private static final long serialVersionUID = 1L;
  private final ArrayList<Generation> generations;
  private final String defaultVersion;
  private final String source;
  private final String separator;
  private final String header;

  VersionedRouterProxy(List<Generation> generations, String defaultVersion, Source source,
      String separator, String header) {
    this.generations = new ArrayList<>(generations);
    this.defaultVersion = defaultVersion;
    this.source = source.name();
    this.separator = separator;
    this.header = header;
  }

  private Object readResolve() throws InvalidObjectException {
    try {
      return new VersionedRouter(generations, defaultVersion, Source.valueOf(source), separator,
          header);
    } catch (RuntimeException e) {
      InvalidObjectException ex = new InvalidObjectException("corrupt VersionedRouter: "
          + e.getMessage());
      ex.initCause(e);
      throw ex;
    }
  }
}
