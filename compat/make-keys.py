#!/usr/bin/env python3
"""Writes the key list the generators read (routing-core/src/test/resources/compat/keys.txt.gz).

Run once by hand; the list is committed and nothing reads the samples at build or test time.

  compat/make-keys.py <dir with npm-package-names-200k.txt.gz and geonames-cities-120k.tsv.gz> [out]

Real keys: every 10th npm package name (20,000 of the 200,000; package `all-the-package-names`
2.0.2578, MIT) and every 12th city as country/admin1/name (10,000 of the 120,000; "Data from
GeoNames (geonames.org), CC BY 4.0"), then the edge keys below. One key per line:
  b:<hex>   a key of these bytes (b: alone is the empty key)
  null      no key (null / nil / undefined)
  s:<hex>   a JavaScript string of these UTF-16 code units (KafkaJS only: strings that are
            not well-formed UTF-16, which Node encodes differently from Java)
Lines starting with # are comments. Deterministic: the same samples give the same file.
"""
import gzip
import random
import sys

if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
data = sys.argv[1]
out = sys.argv[2] if len(sys.argv) == 3 else "routing-core/src/test/resources/compat/keys.txt.gz"


def java_utf8(s):
    """UTF-8 as Java's String.getBytes(UTF_8) gives it: an unpaired surrogate becomes '?'."""
    units = [ord(c) for c in s] if isinstance(s, str) else s
    b = bytearray()
    i = 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            cp = 0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00)
            b += chr(cp).encode("utf-8")
            i += 2
            continue
        if 0xD800 <= u <= 0xDFFF:
            b += b"?"
        else:
            b += chr(u).encode("utf-8")
        i += 1
    return bytes(b)


def utf16(s):
    units = []
    for c in s:
        cp = ord(c)
        if cp >= 0x10000:
            cp -= 0x10000
            units += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
        else:
            units.append(cp)
    return units


lines = ["# RoutingKit cross-client vectors: the keys (written by compat/make-keys.py)",
         "# every 10th npm package name: package all-the-package-names 2.0.2578 (MIT)",
         "# every 12th city as country/admin1/name: Data from GeoNames (geonames.org), CC BY 4.0"]
with gzip.open(f"{data}/npm-package-names-200k.txt.gz", "rt", encoding="utf-8") as f:
    npm = [l.rstrip("\n") for l in f if l.strip()]
with gzip.open(f"{data}/geonames-cities-120k.tsv.gz", "rt", encoding="utf-8") as f:
    cities = [l.rstrip("\n").split("\t") for l in f][1:]
real = [n.encode("utf-8") for n in npm[::10]] + \
       ["/".join(c).encode("utf-8") for c in cities[::12]]
lines += ["b:" + k.hex() for k in real]

lines.append("# edge keys")
edge = [b"", "polygenelubricants".encode(), "GydZG_".encode(), "DESIGNING WORKHOUSES".encode()]
# text: control characters, every UTF-8 length, CJK, Hangul, emoji (surrogate pairs), ZWJ sequences
texts = [" ", "\0", "a", "ab", "abc", "abcd", "abcde", "\x7f", "\x80", "\u07ff", "\u0800", "\uffff",
         "\ufffd", "日本語のキー", "東京/13/渋谷区", "한국어", "Zürich/ZH/Zürich", "😀",
         "user-😀-🚀-👩‍👩‍👧", "\U0010ffff", "\U00010000", "ÿ", "ÿÿÿÿ", "€€€€€"]
edge += [t.encode("utf-8") for t in texts]
# Kafka's upstream murmur2 vectors
edge += [s.encode() for s in ["21", "foobar", "a-little-bit-long-string", "a-little-bit-longer-string",
                               "lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", "abc"]]
# strings with unpaired surrogates, as Java encodes them (each one '?')
lone = [[0xD83D, 0xDE00, 0xD83D], [0xD800], [0xDC00], [0x61, 0xDC00, 0x62], [0xDC00, 0xD800],
        [0xD800, 0xD800, 0xDC00], [0x61, 0x62, 0x63, 0xD83D]]
edge += [java_utf8(u) for u in lone]
# every single byte; runs of 0x00, 0x7f, 0x80, 0xff (sign extension of each byte of a block)
edge += [bytes([b]) for b in range(256)]
for b in (0x00, 0x7F, 0x80, 0xFF):
    edge += [bytes([b]) * n for n in range(2, 17)]
# not UTF-8: truncated and overlong sequences, a lone continuation byte, surrogates encoded as UTF-8
edge += [bytes.fromhex(h) for h in ["c3", "e697", "f09f98", "c0af", "e080af", "80", "bf80", "eda080",
                                     "edb080", "f4908080", "fe", "fffe", "61ff62", "00ff00ff00"]]
rnd = random.Random(19)
# random bytes, 5 of each length 1..64 (every length mod 4 many times)
edge += [bytes(rnd.getrandbits(8) for _ in range(n)) for n in range(1, 65) for _ in range(5)]
# long keys: random printable ASCII around block boundaries, up to 10,007 bytes (KafkaJS 2.x's
# murmur2 keeps its product in an unbounded BigInt, so its time grows with the square of the key
# length: about 0.1 s for 10 kB and 2 s for 64 KiB per call, too slow for the generator)
for n in (255, 256, 257, 1000, 1021, 1022, 1023, 1024, 4096, 4097, 10007):
    edge.append(bytes(rnd.randrange(0x21, 0x7F) for _ in range(n)))
edge.append(b"a" * 8191)
seen = set()
for k in edge:
    if k not in seen:
        seen.add(k)
        lines.append("b:" + k.hex())
lines.append("null")
lines.append("# JavaScript strings that are not well-formed UTF-16 (KafkaJS only)")
lines += ["s:" + "".join(f"{u:04x}" for u in units) for units in lone]
with gzip.GzipFile(out, "wb", mtime=0) as f:
    f.write(("\n".join(lines) + "\n").encode("ascii"))
print(f"{out}: {len(real)} real keys, {len(seen)} distinct edge byte keys, 1 null, {len(lone)} JS strings")
