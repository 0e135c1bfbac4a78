#!/usr/bin/env bash
# CI: installs the other clients' toolchains, regenerates the cross-client vectors from them and
# fails when any differs from the committed one (routing-core/src/test/resources/compat/*.tsv.gz).
# routing-core's CrossClientVectorsTest then holds every matching routing.scheme to the committed
# vectors. "# runtime:" header lines (the Go / Node.js version that ran a generator) are not
# compared: the partitions must not depend on them. A toolchain that cannot be installed fails this step (compat/regenerate.sh exits non-zero).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
committed="$repo/routing-core/src/test/resources/compat"
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT

"$repo/compat/regenerate.sh" --install "$fresh"

status=0
for f in librdkafka sarama kafkajs schema-registry pulsar-cpp kafka-go confluent-kafka-go; do
  [ -f "$committed/$f.tsv.gz" ] || { echo "compat/check.sh: $committed/$f.tsv.gz is missing" >&2; status=1; continue; }
  if ! cmp -s <(gzip -dc "$committed/$f.tsv.gz" | grep -v '^# runtime:') \
              <(gzip -dc "$fresh/$f.tsv.gz" | grep -v '^# runtime:'); then
    echo "compat/check.sh: $f.tsv.gz regenerated from the real client differs from the committed one:" >&2
    diff <(gzip -dc "$committed/$f.tsv.gz" | grep -v '^# runtime:') \
         <(gzip -dc "$fresh/$f.tsv.gz" | grep -v '^# runtime:') | cut -c1-200 | head -20 >&2 || true
    status=1
  else
    echo "compat/check.sh: $f.tsv.gz matches the real client"
  fi
done
if [ "$status" != 0 ]; then
  echo "compat/check.sh: run compat/regenerate.sh --install and commit the vectors if the change is intended" >&2
fi
exit "$status"
