#!/usr/bin/env bash
# Regenerates the cross-client vectors from the real clients:
#   librdkafka (Debian librdkafka-dev, C), Sarama (Debian golang-github-shopify-sarama-dev, Go in
#   GOPATH mode), KafkaJS 2.2.4 and 1.16.0 (npm, pinned by package-lock.json).
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
  packages="gcc libc6-dev librdkafka-dev golang-go golang-github-shopify-sarama-dev"
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages="$packages nodejs npm"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q || fail "apt-get update failed"
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $packages || fail "apt-get install $packages failed"
  (cd "$repo/compat/kafkajs" && npm ci --no-audit --no-fund --loglevel=error) \
    || fail "npm ci in compat/kafkajs failed"
fi

for tool in cc go node gzip dpkg-query; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (run with --install)"
done
[ -f /usr/include/librdkafka/rdkafka.h ] || fail "librdkafka-dev is not installed (run with --install)"
[ -d /usr/share/gocode/src/github.com/Shopify/sarama ] \
  || fail "golang-github-shopify-sarama-dev is not installed (run with --install)"
[ -d "$repo/compat/kafkajs/node_modules/kafkajs" ] && [ -d "$repo/compat/kafkajs/node_modules/kafkajs-1" ] \
  || fail "KafkaJS is not installed in compat/kafkajs (run with --install, or npm ci there)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -Werror -o "$work/librdkafka-partitioners" "$repo/compat/librdkafka/partitioners.c" -lrdkafka \
  || fail "building compat/librdkafka/partitioners.c failed"
mkdir -p "$work/gopath"
(cd "$repo/compat/sarama" && GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOFLAGS= \
  go build -o "$work/sarama-partitioners" partitioners.go 2>"$work/go-build.log") \
  || { cat "$work/go-build.log" >&2; fail "building compat/sarama/partitioners.go failed"; }
sarama_version="$(dpkg-query -W -f='${Version}' golang-github-shopify-sarama-dev)"

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
