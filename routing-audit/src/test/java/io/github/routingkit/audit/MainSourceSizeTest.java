package io.github.routingkit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.routingkit.testing.SourceSize;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** routing-audit's main source files stay within the size limit. */
class MainSourceSizeTest {
  @Test
  void noMainSourceOverTheLimit() {
    assertThat(SourceSize.sourcesLongerThan(Path.of("src/main/java"),
        SourceSize.MAX_MAIN_LINES)).isEmpty();
  }
}
