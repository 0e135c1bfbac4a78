package io.github.routingkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installable distribution that {@code package} builds (target/routing/: bin/routing and lib/)
 * runs as the docs say: the launcher finds its jars through a symbolic link, prints the version
 * and returns the command's exit codes. Runs in {@code verify}, after the distribution is built.
 */
@Tag("slow")
class DistributionLauncherTest {
  private static final Path HOME = Path.of("target", "routing");

  @Test
  void theLauncherRunsTheCommandFromItsLibDirectory() throws Exception {
    Path launcher = HOME.resolve("bin").resolve("routing");
    assertThat(launcher).isExecutable();
    assertThat(HOME.resolve("lib")).isDirectoryContaining(p -> p.getFileName().toString()
        .startsWith("routing-cli-"));
    Result r = run(launcher.toAbsolutePath().toString(), "--version");
    assertThat(r.code).isZero();
    assertThat(r.out).startsWith("routing " + System.getProperty("routingkit.project.version"));
    assertThat(run(launcher.toAbsolutePath().toString(), "resize", "--no-such-option").code)
        .isEqualTo(RoutingCli.EXIT_USAGE);
  }

  @Test
  void theLauncherWorksThroughASymbolicLink(@TempDir Path dir) throws Exception {
    Path link = dir.resolve("routing");
    Files.createSymbolicLink(link, HOME.resolve("bin").resolve("routing").toAbsolutePath());
    Result r = run(link.toString(), "--help");
    assertThat(r.code).isZero();
    assertThat(r.out + r.err).contains("analyze").contains("resize");
  }

  private record Result(int code, String out, String err) {}

  private static Result run(String... command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("launcher finished").isTrue();
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8));
  }
}
