package io.github.routingkit.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.KeyRouter;
import io.github.routingkit.config.RoutingSpec;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The demo's checks without a broker: each kind of fault must fail the round trip. */
class RoundTripTest {
  private static final List<String> KEYS = List.of("@types/node", "react", "US/CA/San José", "");
  private static final int N = 12;
  private final KeyRouter router = RoutingSpec.defaults().keyRouter();
  private RoundTrip trip;

  @BeforeEach
  void setUp() {
    trip = new RoundTrip("Test", "spec", KEYS, N, router);
    for (int i = 0; i < KEYS.size(); i++) {
      trip.sent();
    }
  }

  private void receive(int index) {
    trip.received(Integer.toString(index), KEYS.get(index), router.partition(KEYS.get(index), N));
  }

  @Test
  void predictsWithTheCoreRouter() {
    for (int i = 0; i < KEYS.size(); i++) {
      assertThat(trip.predicted(i)).isEqualTo(router.partition(KEYS.get(i), N)).isBetween(0, N - 1);
    }
  }

  @Test
  void passesWhenEveryMessageComesBackOnceOnItsPartition() {
    for (int i = KEYS.size() - 1; i >= 0; i--) {
      receive(i);
    }
    RoundTrip.Result r = trip.result();
    assertThat(r.passed()).as(r.toString()).isTrue();
    assertThat(r.onPredicted()).isEqualTo(KEYS.size());
    assertThat(r.firstProblem()).isNull();
  }

  @Test
  void failsWhenAMessageIsLost() {
    receive(0);
    receive(1);
    receive(3);
    RoundTrip.Result r = trip.result();
    assertThat(r.passed()).isFalse();
    assertThat(r.lost()).isEqualTo(1);
    assertThat(r.firstProblem()).contains("message 2").contains("never received");
  }

  @Test
  void failsWhenAMessageIsOnAnotherPartition() {
    receive(0);
    receive(1);
    receive(3);
    int wrong = (trip.predicted(2) + 1) % N;
    trip.received("2", KEYS.get(2), wrong);
    RoundTrip.Result r = trip.result();
    assertThat(r.passed()).isFalse();
    assertThat(r.lost()).isZero();
    assertThat(r.onPredicted()).isEqualTo(KEYS.size() - 1);
    assertThat(r.firstProblem()).contains("on partition " + wrong);
  }

  @Test
  void failsWhenAMessageComesTwice() {
    for (int i = 0; i < KEYS.size(); i++) {
      receive(i);
    }
    receive(1);
    RoundTrip.Result r = trip.result();
    assertThat(r.passed()).isFalse();
    assertThat(r.duplicates()).isEqualTo(1);
    assertThat(r.firstProblem()).contains("duplicate of message 1");
  }

  @Test
  void failsOnAMessageThatWasNotSentOrASendFailure() {
    for (int i = 0; i < KEYS.size(); i++) {
      receive(i);
    }
    trip.received("1", "not-the-key", 0);
    assertThat(trip.result().unknown()).isEqualTo(1);
    assertThat(trip.result().passed()).isFalse();

    RoundTrip failedSend = new RoundTrip("Test", "spec", KEYS, N, router);
    failedSend.sendFailed(new RuntimeException("boom"));
    assertThat(failedSend.result().passed()).isFalse();
    assertThat(failedSend.result().firstProblem()).contains("boom");
  }

  @Test
  void maxOverMeanOfAPerfectSpreadIsOne() {
    RoundTrip.Result r = new RoundTrip.Result("b", "s", 24, 24, 0, 24, 0, 0, 0, 24,
        new long[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, null);
    assertThat(r.maxOverMean()).isEqualTo(1.0);
    assertThat(r.passed()).isTrue();
  }
}
