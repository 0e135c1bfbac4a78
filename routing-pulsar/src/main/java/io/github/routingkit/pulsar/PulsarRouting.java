package io.github.routingkit.pulsar;

import io.github.routingkit.config.RoutingSpec;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClientException;

/** One-call configuration of Pulsar producers with RoutingKit. */
public final class PulsarRouting {
  private PulsarRouting() {}

  /**
   * Sets {@code messageRoutingMode(CustomPartition)} and a {@link RoutingMessageRouter} for
   * {@code spec} on the builder, and returns a builder that keeps them through {@code
   * loadConf(Map)}. The builder's {@code hashingScheme} is then not used.
   *
   * <p>pulsar-client's {@code loadConf} rebuilds the configuration from its JSON form, which
   * drops the message router (pulsar-client 4.2; apache/pulsar#11727, closed as stale, asked for
   * a router {@code loadConf} could set by class name). The returned builder sets the router again
   * after every {@code loadConf}. If the loaded map sets {@code messageRoutingMode} to anything
   * but {@code CustomPartition}, the map and the spec contradict each other: {@code create()}
   * then throws {@link PulsarClientException.InvalidConfigurationException} and {@code
   * createAsync()} completes with it, naming the cause and the fix. Chain on the returned
   * builder: {@code loadConf} on the original builder object still loses the router.
   *
   * <p>The returned builder delegates every other call to {@code builder}, returns itself where
   * {@code builder} returns itself, and {@code clone()} returns a builder that keeps the router
   * too.
   *
   * <p>With a canary schedule ({@code routing.canary.schedule}) it also sets the builder's
   * {@code sendTimeout} to {@code routing.canary.delivery-timeout}: set no longer one after it.
   *
   * @return a builder that configures {@code builder}, for chaining
   * @throws NullPointerException if an argument is null
   */
  public static <T> ProducerBuilder<T> customPartition(ProducerBuilder<T> builder, RoutingSpec spec) {
    return customPartition(builder, spec, null);
  }

  /**
   * As {@link #customPartition(ProducerBuilder, RoutingSpec)}, publishing the routing metrics
   * (docs/metrics.md) through {@code openTelemetry}, the instance given to pulsar-client's
   * {@code ClientBuilder.openTelemetry}. The one-argument form publishes through
   * {@code GlobalOpenTelemetry} when opentelemetry-api is on the class path, as pulsar-client
   * does. With metrics on ({@code routing.metrics.enabled}, the default) every {@code create()}
   * gives its producer a router of its own that records what it routes, tagged with the
   * builder's topic and producer name (whether set before or after this call); closing the
   * producer ends them.
   *
   * @param openTelemetry an {@code io.opentelemetry.api.OpenTelemetry}, or null for the global one
   * @return a builder that configures {@code builder}, for chaining
   * @throws NullPointerException if {@code builder} or {@code spec} is null
   */
  public static <T> ProducerBuilder<T> customPartition(ProducerBuilder<T> builder, RoutingSpec spec,
      io.opentelemetry.api.OpenTelemetry openTelemetry) {
    Objects.requireNonNull(builder, "builder");
    RoutingMessageRouter router = new RoutingMessageRouter(Objects.requireNonNull(spec, "spec"));
    builder.messageRoutingMode(MessageRoutingMode.CustomPartition).messageRouter(router);
    if (spec.canarySchedule() != null) {
      // a step's markers go out this long after the step: every message routed before it must
      // be acknowledged or failed by then
      builder.sendTimeout((int) spec.canarySchedule().deliveryTimeoutMillis(),
          java.util.concurrent.TimeUnit.MILLISECONDS);
    }
    ProducerBuilder<T> wrapped = KeepsRouter.wrap(builder, router, spec);
    ((KeepsRouter) Proxy.getInvocationHandler(wrapped)).openTelemetry = openTelemetry;
    return wrapped;
  }

  /*
   * A dynamic proxy rather than a delegating class: ProducerBuilder grows methods between client
   * versions (users bring their own pulsar-client), and a proxy forwards them all.
   */
  private static final class KeepsRouter implements InvocationHandler {
    private final ProducerBuilder<?> delegate;
    private final RoutingMessageRouter router;
    private final RoutingSpec spec;
    private Object conflictingMode;
    private Object self;
    /** What the metrics are tagged with and published through (see ProducerMetrics). */
    private String topic;
    private String producerName;
    private Object openTelemetry;

    private KeepsRouter(ProducerBuilder<?> delegate, RoutingMessageRouter router, RoutingSpec spec) {
      this.delegate = delegate;
      this.router = router;
      this.spec = spec;
    }

    @SuppressWarnings("unchecked")
    static <T> ProducerBuilder<T> wrap(
        ProducerBuilder<T> builder, RoutingMessageRouter router, RoutingSpec spec) {
      KeepsRouter handler = new KeepsRouter(builder, router, spec);
      handler.self = Proxy.newProxyInstance(PulsarRouting.class.getClassLoader(),
          new Class<?>[] {ProducerBuilder.class}, handler);
      return (ProducerBuilder<T>) handler.self;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      int arity = args == null ? 0 : args.length;
      if (method.getDeclaringClass() == Object.class) {
        switch (name) {
          case "equals":
            return proxy == args[0];
          case "hashCode":
            return System.identityHashCode(proxy);
          default:
            return "PulsarRouting.customPartition(" + delegate + ", " + spec + ")";
        }
      }
      if (arity == 0 && (name.equals("create") || name.equals("createAsync"))) {
        PulsarClientException problem = conflict();
        if (problem != null) {
          if (name.equals("create")) {
            throw problem;
          }
          return CompletableFuture.failedFuture(problem);
        }
      }
      if (name.equals("messageRoutingMode") || name.equals("messageRouter")) {
        conflictingMode = null; // an explicit call after loadConf is the caller's decision
      }
      ProducerMetrics metrics = arity == 0 && (name.equals("create") || name.equals("createAsync"))
          ? ProducerMetrics.bind(delegate, spec, configured("getTopicName", topic),
              configured("getProducerName", producerName), openTelemetry) : null;
      Object result;
      try {
        result = method.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        if (metrics != null) {
          metrics.close();
        }
        throw e.getCause();
      }
      if (metrics != null) {
        return name.equals("create") ? metrics.wrap((Producer<?>) result)
            : ((CompletableFuture<Producer<?>>) result).handle((p, e) -> {
              if (e != null) {
                metrics.close();
                throw e instanceof CompletionException ? (CompletionException) e
                    : new CompletionException(e);
              }
              return metrics.wrap(p);
            });
      }
      remember(name, arity, args);
      if (name.equals("loadConf") && arity == 1) {
        Object mode = ((Map<?, ?>) args[0]).get("messageRoutingMode");
        if (mode == null || String.valueOf(mode).equals(MessageRoutingMode.CustomPartition.name())) {
          delegate.messageRoutingMode(MessageRoutingMode.CustomPartition).messageRouter(router);
          conflictingMode = null;
        } else {
          conflictingMode = mode;
        }
      }
      if (name.equals("clone") && arity == 0 && result instanceof ProducerBuilder<?>) {
        ProducerBuilder<?> copy = (ProducerBuilder<?>) result;
        KeepsRouter handler = (KeepsRouter) Proxy.getInvocationHandler(wrap(copy, router, spec));
        handler.conflictingMode = conflictingMode;
        handler.topic = topic;
        handler.producerName = producerName;
        handler.openTelemetry = openTelemetry;
        return handler.self;
      }
      return result == delegate ? self : result;
    }

    /**
     * The builder's topic or producer name as its configuration holds it, whichever call set it
     * (before or after the builder was wrapped, {@code loadConf} included): pulsar-client's
     * builder exposes its configuration through {@code getConf()}. A builder without one gives
     * {@code remembered}, what the calls through the wrapper set.
     */
    private String configured(String getter, String remembered) {
      try {
        Object conf = delegate.getClass().getMethod("getConf").invoke(delegate);
        Object value = conf.getClass().getMethod(getter).invoke(conf);
        return value instanceof String && !((String) value).isEmpty() ? (String) value : remembered;
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return remembered;
      }
    }

    /** Remembers the topic and producer name the metrics are tagged with. */
    private void remember(String name, int arity, Object[] args) {
      if (arity != 1) {
        return;
      }
      if (name.equals("topic") && args[0] instanceof String) {
        topic = (String) args[0];
      } else if (name.equals("producerName") && args[0] instanceof String) {
        producerName = (String) args[0];
      } else if (name.equals("loadConf") && args[0] instanceof Map) {
        Object t = ((Map<?, ?>) args[0]).get("topicName");
        Object p = ((Map<?, ?>) args[0]).get("producerName");
        topic = t != null ? t.toString() : topic;
        producerName = p != null ? p.toString() : producerName;
      }
    }

    private PulsarClientException conflict() {
      if (conflictingMode == null) {
        return null;
      }
      return new PulsarClientException.InvalidConfigurationException(
          "loadConf set messageRoutingMode=" + conflictingMode + " on a producer configured by"
              + " PulsarRouting.customPartition, which needs CustomPartition for its routing spec "
              + spec + "; remove messageRoutingMode from the loaded map (or set it to"
              + " CustomPartition), or drop customPartition to use the built-in " + conflictingMode
              + " routing");
    }
  }
}
