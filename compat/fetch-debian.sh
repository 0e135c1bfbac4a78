#!/usr/bin/env bash
# Unpacks Debian packages that this machine's release does not carry, or carries in another
# version, without installing them, for the compat/ generators:
#
#   compat/fetch-debian.sh <out-dir> <package>/<suite>...
#     e.g. <out-dir> libboost1.83-dev/trixie golang-github-segmentio-kafka-go-dev/sid
#
# Each package is downloaded with `apt-get download` and unpacked with `dpkg -x` into
# <out-dir>/<package> (so <out-dir>/libboost1.83-dev/usr/include holds Boost 1.83's headers). The
# packages come from the Debian mirror this machine's apt sources name, suites bookworm (Debian 12),
# trixie (Debian 13) and sid (unstable), listed in a private apt state under <out-dir>/apt, so the
# machine's apt configuration is left as it is. Prints "<package> <version>" per package to stdout.
# Fails (non-zero) if any package cannot be had.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <out-dir> <package>/<suite>..." >&2; exit 2; }
out="$1"
shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"

fail() {
  echo "compat/fetch-debian.sh: $*" >&2
  exit 1
}

# the mirror of the machine's main Debian source (deb822 .sources or a one-line sources.list)
mirror="$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)"
if [ -z "$mirror" ]; then
  mirror="$(awk '$1=="deb" && $2 !~ /^\[/ {print $2; exit} $1=="deb" && $2 ~ /^\[/ {print $3; exit}' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)"
fi
[ -n "$mirror" ] || fail "no Debian mirror found in /etc/apt/sources.list*"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || fail "$keyring is missing (package debian-archive-keyring)"

apt="$out/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
: > "$apt/sources.list"
for suite in bookworm trixie sid; do
  echo "deb [signed-by=$keyring] $mirror $suite main" >> "$apt/sources.list"
done
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/none"
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "Debug::NoLocking=1")
apt-get "${opts[@]}" -q update >"$apt/update.log" 2>&1 || { cat "$apt/update.log" >&2; fail "apt-get update failed"; }

for spec in "$@"; do
  pkg="${spec%/*}"
  [ "$pkg" != "$spec" ] || fail "$spec: give <package>/<suite>"
  rm -f "$apt/"*.deb
  (cd "$apt" && apt-get "${opts[@]}" -q download "$spec" >"$apt/download.log" 2>&1) \
    || { cat "$apt/download.log" >&2; fail "apt-get download $spec failed"; }
  deb="$(ls "$apt/${pkg}_"*.deb)"
  rm -rf "${out:?}/$pkg"
  dpkg -x "$deb" "$out/$pkg"
  echo "$pkg $(dpkg-deb -f "$deb" Version)"
  rm -f "$deb"
done
