// Prints the partition pulsar-client-cpp's HashingScheme::BoostHash gives each key, computed with
// the real boost::hash<std::string> of the Boost headers this file is compiled against, for
// routing-core's cross-client vectors.
//
// What the client does with the hash (read from apache/pulsar-client-cpp, lib/BoostHash.cc and the
// routers lib/SinglePartitionMessageRouter.cc, lib/RoundRobinMessageRouter.cc): a message with a
// partition key goes to  (int32_t)(boost::hash<std::string>()(key) & INT32_MAX) % numPartitions,
// in both the UseSinglePartition and the RoundRobinDistribution mode. This program applies that
// documented masking and modulo itself; only the hash comes from Boost.
//
// Reads the key list (compat/make-keys.py's format, uncompressed) on stdin and writes one TSV row
// per byte key (b:<hex>): the key, then the partition for each count, comma-separated. Other
// lines (null, s:, comments) are skipped: the C++ client has no null partition key (a message
// without one takes the keyless path, no hash), and JavaScript strings are KafkaJS's alone.
//
// Build (boost::hash is header-only):  g++ -O2 -std=c++17 -I<boost include dir> -o p this.cc
// Usage: p < keys.txt
#include <boost/functional/hash.hpp>
#include <boost/version.hpp>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>

static const int32_t kCounts[] = {1, 2, 3, 7, 12, 24, 100, 997, 1024, 65537};

static int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int main() {
  static_assert(sizeof(std::size_t) == 8, "the vectors are for a 64-bit size_t");
  std::ios::sync_with_stdio(false);
  boost::hash<std::string> hasher;
  std::string line;
  std::string out;
  std::fprintf(stderr, "boost %d.%d.%d, char is %s\n", BOOST_VERSION / 100000,
               BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100,
               std::numeric_limits<char>::is_signed ? "signed" : "unsigned");
  while (std::getline(std::cin, line)) {
    if (line.compare(0, 2, "b:") != 0) continue;
    std::string key;
    for (std::size_t i = 2; i + 1 < line.size(); i += 2) {
      int hi = HexDigit(line[i]);
      int lo = HexDigit(line[i + 1]);
      if (hi < 0 || lo < 0) {
        std::fprintf(stderr, "bad hex: %.40s\n", line.c_str());
        return 2;
      }
      key.push_back(static_cast<char>(hi << 4 | lo));
    }
    if ((line.size() - 2) % 2 != 0) {
      std::fprintf(stderr, "odd hex length: %.40s\n", line.c_str());
      return 2;
    }
    int32_t masked = static_cast<int32_t>(hasher(key) & std::numeric_limits<int32_t>::max());
    out = line;
    out.push_back('\t');
    for (std::size_t c = 0; c < sizeof kCounts / sizeof kCounts[0]; c++) {
      if (c > 0) out.push_back(',');
      out += std::to_string(masked % kCounts[c]);
    }
    out.push_back('\n');
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  return 0;
}
