package io.github.routingkit.switching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The exact marker form: only what the helpers write is a marker; nothing else throws. */
class SwitchMarkerTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theExactFormParses() {
    assertThat(SwitchMarker.parse(b("canary-1a2b:x_y.z"), b("0"), b("11")))
        .isEqualTo(new SwitchMarker("canary-1a2b:x_y.z", 0, 11));
    assertThat(SwitchMarker.parse("g", "2147483647", "1048575"))
        .isEqualTo(new SwitchMarker("g", Integer.MAX_VALUE, (1 << 20) - 1));
  }

  @Test
  void anythingElseIsNoMarkerAndNeverThrows() {
    String[][] bad = {
        {null, "1", "0"}, {"g", null, "0"}, {"g", "1", null}, {"", "1", "0"},
        {"g g", "1", "0"}, {"g\n", "1", "0"}, {"gé", "1", "0"}, {"x".repeat(129), "1", "0"},
        {"g", "", "0"}, {"g", "01", "0"}, {"g", "+1", "0"}, {"g", "-1", "0"}, {"g", " 1", "0"},
        {"g", "1 ", "0"}, {"g", "2147483648", "0"}, {"g", "99999999999", "0"}, {"g", "1.0", "0"},
        {"g", "١", "0"}, {"g", "1", "1048576"}, {"g", "1", "00"}, {"g", "1", "0x1"},
    };
    for (String[] f : bad) {
      assertThat(SwitchMarker.parse(f[0], f[1], f[2])).as("%s / %s / %s", (Object[]) f).isNull();
    }
    assertThat(SwitchMarker.parse(new byte[] {(byte) 0xff}, b("1"), b("0"))).isNull();
    assertThat(SwitchMarker.parse(b("g"), new byte[] {(byte) 0xc3}, b("0"))).isNull();
    assertThat(SwitchMarker.parse(b("g"), b("1"), new byte[0])).isNull();
    assertThat(SwitchMarker.parse((byte[]) null, null, null)).isNull();
  }

  @Test
  void theConstructorNamesTheRule() {
    assertThatThrownBy(() -> new SwitchMarker("a b", 1, 0))
        .hasMessage("marker generation was 'a b', must be 1 to 128 characters of [A-Za-z0-9._:-]");
    assertThatThrownBy(() -> new SwitchMarker("g", -1, 0)).hasMessageContaining("must be >= 0");
    assertThatThrownBy(() -> new SwitchMarker("g", 1, 1 << 20))
        .hasMessageContaining("must be in [0, 1048576)");
  }
}
