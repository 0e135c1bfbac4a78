/**
 * The {@code routing} command line ({@code bin/routing} of the distribution; docs/cli.md):
 * {@code RoutingCli} is the main class, one picocli command per subcommand ({@code analyze},
 * {@code compare}, {@code locate}, {@code resize}, {@code rollout}, {@code plan}, {@code lint},
 * {@code audit}). Exit codes: 0 passed, 1 check failed, 2 bad input or usage, 3 internal error.
 */
package io.github.routingkit.cli;
