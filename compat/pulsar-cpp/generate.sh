#!/usr/bin/env bash
# Writes the Pulsar C++ client's BoostHash vectors (TSV, uncompressed) to stdout:
#
#   compat/pulsar-cpp/generate.sh <debian-dir> < keys.txt > pulsar-cpp.tsv
#
# <debian-dir> as compat/fetch-debian.sh left it, with libboost1.74-dev, libboost1.81-dev and
# libboost1.83-dev unpacked (the three generations of boost::hash<std::string>). Builds
# boost_hash_partitions.cc once per Boost generation (1.74 twice: with the platform's signed char
# and with -funsigned-char, as on Linux aarch64), runs each build on the keys and joins their
# columns: boost-1.74, boost-1.74-unsigned-char, boost-1.81, boost-1.83. A cell equal to an earlier
# column's is written "=<column>" (1-based), as in the other vector files.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <debian-dir> < keys.txt" >&2; exit 2; }
boost="$(cd "$1" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
  echo "compat/pulsar-cpp/generate.sh: $*" >&2
  exit 1
}

cat > "$work/keys.txt"
columns="boost-1.74 boost-1.74-unsigned-char boost-1.81 boost-1.83"
runtime="$(g++ -dumpfullversion) $(uname -m);"
for col in $columns; do
  v="${col#boost-}"
  v="${v%-unsigned-char}"
  flags=""
  char=signed
  if [ "$col" != "${col%-unsigned-char}" ]; then
    flags="-funsigned-char"
    char=unsigned
  fi
  inc="$boost/libboost$v-dev/usr/include"
  [ -f "$inc/boost/functional/hash.hpp" ] || fail "no Boost $v headers in $boost/libboost$v-dev (run compat/fetch-debian.sh)"
  # shellcheck disable=SC2086
  g++ -O2 -std=c++17 -Wall -Werror -Wno-deprecated-declarations $flags -I "$inc" \
    -o "$work/$col" "$here/boost_hash_partitions.cc" || fail "building for $col failed"
  "$work/$col" < "$work/keys.txt" > "$work/$col.tsv" 2>"$work/$col.log" || { cat "$work/$col.log" >&2; fail "$col failed"; }
  grep -q "^boost $v\.[0-9]*, char is $char$" "$work/$col.log" || fail "$col: $(cat "$work/$col.log")"
  runtime="$runtime $(sed 's/, char is .*//' "$work/$col.log")${flags:+ $flags},"
done

echo "# client: pulsar-client-cpp BoostHash: boost::hash<std::string> of Boost 1.74, 1.81 and 1.83 (Debian libboost1.74-dev, libboost1.81-dev, libboost1.83-dev), 64-bit"
echo "# runtime: g++ ${runtime%,}"
echo "# generator: compat/pulsar-cpp/boost_hash_partitions.cc ((int32_t)(boost::hash<std::string>()(key) & INT32_MAX) % n, the client's BoostHash and routers)"
echo "# counts: 1 2 3 7 12 24 100 997 1024 65537"
echo "# partitioners: $columns"
echo "# row: key, then per partitioner the partition for each count (comma-separated); =N = same as column N"
# shellcheck disable=SC2086
set -- $columns
paste "$work/$1.tsv" "$work/$2.tsv" "$work/$3.tsv" "$work/$4.tsv" | awk -F'\t' '
  {
    if ($1 != $3 || $1 != $5 || $1 != $7) { print "keys out of step at line " NR > "/dev/stderr"; exit 3 }
    line = $1
    n = 0
    for (i = 2; i <= 8; i += 2) {
      n++
      cell[n] = $i
      out = $i
      for (j = 1; j < n; j++) if (cell[j] == $i) { out = "=" j; break }
      line = line "\t" out
    }
    print line
  }'
