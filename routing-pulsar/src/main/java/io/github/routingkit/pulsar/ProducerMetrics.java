package io.github.routingkit.pulsar;

import io.github.routingkit.config.RoutingSpec;
import io.github.routingkit.metrics.RouterMetrics;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;

/**
 * The metrics of one Pulsar producer made by {@link PulsarRouting#customPartition}: its own
 * {@link RoutingMessageRouter} that records every routed message, published through
 * OpenTelemetry when {@code opentelemetry-api} is present, and released when the producer is
 * closed (the returned producer is a proxy that watches {@code close} and {@code closeAsync}).
 */
final class ProducerMetrics {
  private static final AtomicInteger UNNAMED = new AtomicInteger();
  private static final boolean OTEL = present("io.opentelemetry.api.OpenTelemetry");

  private final RouterMetrics router;
  private final AutoCloseable publisher;

  private ProducerMetrics(RouterMetrics router, AutoCloseable publisher) {
    this.router = router;
    this.publisher = publisher;
  }

  /**
   * Sets a router with metrics for {@code topic} on {@code builder} and publishes them, or returns
   * null (and sets nothing) when {@code routing.metrics.enabled=false}.
   *
   * @param producerName the builder's producer name, or null (then a generated id)
   * @param openTelemetry an {@code OpenTelemetry}, or null for {@code GlobalOpenTelemetry} (what
   *     pulsar-client uses without {@code ClientBuilder.openTelemetry})
   */
  static ProducerMetrics bind(ProducerBuilder<?> builder, RoutingSpec spec, String topic,
      String producerName, Object openTelemetry) {
    String id = producerName != null ? producerName : "routing-producer-" + UNNAMED.incrementAndGet();
    RouterMetrics router = RouterMetrics.create(id, spec, spec, System::nanoTime);
    if (router == null) {
      return null;
    }
    String name = topic == null ? "" : topic;
    builder.messageRouter(new RoutingMessageRouter(spec, router, name));
    AutoCloseable publisher = null;
    if (openTelemetry != null || OTEL) {
      publisher = PulsarMetricsPublisher.publish(openTelemetry != null ? openTelemetry
          : io.opentelemetry.api.GlobalOpenTelemetry.get(), router.topic(name, 1));
    }
    return new ProducerMetrics(router, publisher);
  }

  /** Returns {@code producer}, closing the metrics when it is closed. */
  @SuppressWarnings("unchecked")
  <T> Producer<T> wrap(Producer<T> producer) {
    return (Producer<T>) Proxy.newProxyInstance(ProducerMetrics.class.getClassLoader(),
        new Class<?>[] {Producer.class}, new ClosesMetrics(producer, this));
  }

  /** Stops publishing. */
  void close() {
    if (publisher != null) {
      try {
        publisher.close();
      } catch (Exception e) {
        // the publisher's close does not fail
      }
    }
    router.close();
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, ProducerMetrics.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Forwards every call; closes the metrics once the producer is closed. */
  private static final class ClosesMetrics implements InvocationHandler {
    private final Producer<?> delegate;
    private final ProducerMetrics metrics;

    ClosesMetrics(Producer<?> delegate, ProducerMetrics metrics) {
      this.delegate = delegate;
      this.metrics = metrics;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class && method.getName().equals("equals")) {
        return proxy == args[0];
      }
      Object result;
      try {
        result = method.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (method.getName().equals("close") && (args == null || args.length == 0)) {
        metrics.close();
      } else if (method.getName().equals("closeAsync") && result instanceof CompletableFuture) {
        ((CompletableFuture<?>) result).whenComplete((r, e) -> metrics.close());
      }
      return result;
    }
  }
}
