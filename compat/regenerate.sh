#!/usr/bin/env bash
# Regenerates the cross-client vectors from the real clients:
#   librdkafka (Debian librdkafka-dev, C), Sarama (Debian golang-github-shopify-sarama-dev, Go in
#   GOPATH mode), KafkaJS 2.2.4 and 1.16.0 (npm, pinned by package-lock.json), and the Pulsar C++
#   client's BoostHash: boost::hash<std::string> of Boost 1.74, 1.81 (Debian 12) and 1.83 (Debian 13),
#   unpacked from Debian's libboost<v>-dev packages, and segmentio/kafka-go 0.4 (Debian unstable's
#   golang-github-segmentio-kafka-go-dev; Debian 12 and 13 carry only 0.2.1, without the
#   ReferenceHash, Murmur2 and CRC32 balancers), both fetched by compat/fetch-debian.sh; and
#   confluent-kafka-go (Debian golang-github-confluentinc-confluent-kafka-go-dev, cgo, linking
#   librdkafka-dev), whose Producer runs against librdkafka's in-process mock cluster. Also the
#   schema-registry key vectors: keys serialized by Confluent's JavaScript serializers
#   (@confluentinc/schemaregistry, npm, pinned by compat/schema-registry/package-lock.json).
#
#   compat/regenerate.sh [--install] [out-dir]
#
# --install first installs the toolchains from Debian (one apt-get update; needs root) and runs
# `npm ci`. out-dir defaults to the committed vectors, routing-core/src/test/resources/compat.
# Every missing tool, failed build or failed generator stops the script with a non-zero exit:
# nothing is skipped.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
install=0
if [ "${1:-}" = "--install" ]; then
  install=1
  shift
fi
out="${1:-$repo/routing-core/src/test/resources/compat}"
keys="$repo/routing-core/src/test/resources/compat/keys.txt.gz"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

fail() {
  echo "compat/regenerate.sh: $*" >&2
  exit 1
}

if [ "$install" = 1 ]; then
  packages="gcc g++ libc6-dev librdkafka-dev golang-go golang-github-shopify-sarama-dev golang-github-klauspost-compress-dev golang-github-confluentinc-confluent-kafka-go-dev debian-archive-keyring"
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages="$packages nodejs npm"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q || fail "apt-get update failed"
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $packages || fail "apt-get install $packages failed"
  (cd "$repo/compat/kafkajs" && npm ci --no-audit --no-fund --loglevel=error) \
    || fail "npm ci in compat/kafkajs failed"
  (cd "$repo/compat/schema-registry" && npm ci --no-audit --no-fund --loglevel=error) \
    || fail "npm ci in compat/schema-registry failed"
fi

for tool in cc g++ go node gzip dpkg-query dpkg-deb apt-get; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (run with --install)"
done
[ -f /usr/include/librdkafka/rdkafka.h ] || fail "librdkafka-dev is not installed (run with --install)"
[ -d /usr/share/gocode/src/github.com/Shopify/sarama ] \
  || fail "golang-github-shopify-sarama-dev is not installed (run with --install)"
[ -d /usr/share/gocode/src/github.com/confluentinc/confluent-kafka-go ] \
  || fail "golang-github-confluentinc-confluent-kafka-go-dev is not installed (run with --install)"
[ -d "$repo/compat/kafkajs/node_modules/kafkajs" ] && [ -d "$repo/compat/kafkajs/node_modules/kafkajs-1" ] \
  || fail "KafkaJS is not installed in compat/kafkajs (run with --install, or npm ci there)"
[ -d "$repo/compat/schema-registry/node_modules/@confluentinc/schemaregistry" ] \
  || fail "@confluentinc/schemaregistry is not installed in compat/schema-registry (run with --install, or npm ci there)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -Werror -o "$work/librdkafka-partitioners" "$repo/compat/librdkafka/partitioners.c" -lrdkafka \
  || fail "building compat/librdkafka/partitioners.c failed"
mkdir -p "$work/gopath"
(cd "$repo/compat/sarama" && GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOFLAGS= \
  go build -o "$work/sarama-partitioners" partitioners.go 2>"$work/go-build.log") \
  || { cat "$work/go-build.log" >&2; fail "building compat/sarama/partitioners.go failed"; }
"$repo/compat/fetch-debian.sh" "$work/debian" libboost1.74-dev/bookworm libboost1.81-dev/bookworm \
  libboost1.83-dev/trixie golang-github-segmentio-kafka-go-dev/sid golang-github-pierrec-lz4-dev/trixie \
  > "$work/debian.txt" || fail "fetching the Boost headers and kafka-go failed"
# kafka-go 0.4 in GOPATH mode: its own tree and lz4/v4 from the fetched packages, the rest (klauspost
# compress, x/net) from /usr/share/gocode
gocode=usr/share/gocode/src/github.com
mkdir -p "$work/kafka-go-path/src/github.com/segmentio" "$work/kafka-go-path/src/github.com/pierrec/lz4"
ln -s "$work/debian/golang-github-segmentio-kafka-go-dev/$gocode/segmentio/kafka-go" \
  "$work/kafka-go-path/src/github.com/segmentio/kafka-go"
ln -s "$work/debian/golang-github-pierrec-lz4-dev/$gocode/pierrec/lz4" "$work/kafka-go-path/src/github.com/pierrec/lz4/v4"
(cd "$repo/compat/kafka-go" && GO111MODULE=off GOPATH="$work/kafka-go-path:/usr/share/gocode" GOFLAGS= \
  go build -o "$work/kafka-go-balancers" balancers.go 2>"$work/go-build.log") \
  || { cat "$work/go-build.log" >&2; fail "building compat/kafka-go/balancers.go failed"; }
kafka_go_version="$(awk '$1=="golang-github-segmentio-kafka-go-dev"{print $2}' "$work/debian.txt")"
(cd "$repo/compat/confluent-kafka-go" && GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOFLAGS= \
  go build -o "$work/confluent-kafka-go-producer" producer.go 2>"$work/go-build.log") \
  || { cat "$work/go-build.log" >&2; fail "building compat/confluent-kafka-go/producer.go failed"; }
sarama_version="$(dpkg-query -W -f='${Version}' golang-github-shopify-sarama-dev)"
ckg_version="$(dpkg-query -W -f='${Version}' golang-github-confluentinc-confluent-kafka-go-dev)"

generate() { # name command...
  local name="$1"
  shift
  gzip -dc "$keys" | "$@" > "$work/$name.tsv" || fail "generator for $name failed"
  gzip -n -9 -c "$work/$name.tsv" > "$out/$name.tsv.gz"
  echo "$out/$name.tsv.gz: $(grep -vc '^#' "$work/$name.tsv") keys, $(head -1 "$work/$name.tsv" | cut -c3-)"
}
generate librdkafka "$work/librdkafka-partitioners"
generate sarama "$work/sarama-partitioners" "${sarama_version%-*} (Debian golang-github-shopify-sarama-dev $sarama_version)"
generate kafkajs env KAFKAJS_NO_PARTITIONER_WARNING=1 node "$repo/compat/kafkajs/partitioners.js"
generate schema-registry node "$repo/compat/schema-registry/serialize.js"
generate pulsar-cpp "$repo/compat/pulsar-cpp/generate.sh" "$work/debian"
generate kafka-go "$work/kafka-go-balancers" "${kafka_go_version%+*} (Debian golang-github-segmentio-kafka-go-dev $kafka_go_version)"
generate confluent-kafka-go "$work/confluent-kafka-go-producer" "${ckg_version%-*}"
