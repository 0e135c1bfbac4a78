#!/usr/bin/env bash
# Builds the benchmark jar and runs the whole JMH suite (about 12 minutes on 2 cores), writing
# docs/benchmarks.md. Run it on an otherwise idle machine: ratios compare benchmarks of the same
# run, but noise from other processes widens the errors.
# Usage: routing-benchmarks/run-benchmarks.sh [include-regex]
# Not in the report, in package io.github.routingkit (2 forks each; run them by name with
#   java -jar routing-benchmarks/target/benchmarks.jar <name>):
#   StringPathCrossoverBenchmark  where the murmur schemes' String paths cross (about 6 minutes)
#   Utf8KeyBenchmark              Pulsar JavaStringHash of UTF-8 bytes by script (about 1 minute)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl routing-benchmarks -am package -DskipTests
java -cp routing-benchmarks/target/benchmarks.jar io.github.routingkit.benchmarks.BenchmarkReport \
  docs/benchmarks.md "${1:-io.github.routingkit.benchmarks.*Benchmark}"
