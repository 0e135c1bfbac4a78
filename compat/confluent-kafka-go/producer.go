// Command producer prints where confluent-kafka-go's producer puts keyed messages, for
// routing-core's cross-client vectors: the partitions its linked librdkafka chose, read from the
// delivery reports of a real Producer.
//
// It reads the key list (compat/make-keys.py's format, uncompressed) on stdin, starts librdkafka's
// in-process mock cluster (one broker on a loopback port, through librdkafka's own C API
// rdkafka_mock.h, on a handle of its own) with one topic per partition count, and for each
// partitioner (the client's default, i.e. no "partitioner" set, and murmur2_random) creates a
// confluent-kafka-go Producer with bootstrap.servers pointing at it, produces every byte key
// (b:<hex>; no value) to each topic with PartitionAny and records the partition of each delivery
// report. The empty key is produced twice per count: if the two deliveries differ at any count,
// its cell is "*" (random). sticky.partitioning.linger.ms=0 makes librdkafka's keyless path pick
// a new random partition per message instead of one per 10 ms window, so that the two copies can
// differ; keyed messages never take that path.
// It writes one TSV row per byte key: the key, then per partitioner the partitions for the counts,
// comma-separated; a cell equal to an earlier column's is written "=<column>" (1-based).
//
// Build in GOPATH mode against Debian's golang-github-confluentinc-confluent-kafka-go-dev and
// librdkafka-dev (cgo):
//
//	GO111MODULE=off GOPATH=<dir>:/usr/share/gocode go build -o producer producer.go
//
// Usage: producer <confluent-kafka-go version> < keys.txt
package main

/*
#cgo LDFLAGS: -lrdkafka
#include <stdlib.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

// A mock cluster on a handle of its own; returns NULL and fills err on failure.
static rd_kafka_mock_cluster_t *mock_new(char *err, size_t errsize) {
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_conf_set(conf, "log_level", "3", err, errsize);
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, errsize);
	if (!rk) return NULL;
	return rd_kafka_mock_cluster_new(rk, 1);
}
*/
import "C"

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"github.com/confluentinc/confluent-kafka-go/kafka"
)

var counts = []int{1, 2, 3, 7, 12, 24, 100, 997, 1024, 65537}

type delivery struct {
	key, count int
	again      bool // the empty key's second copy
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "confluent-kafka-go producer: "+format+"\n", args...)
	os.Exit(3)
}

func topicName(n int) string {
	return fmt.Sprintf("routingkit-vectors-%d", n)
}

// startMock starts the mock cluster with one topic per count and returns its bootstrap servers.
func startMock() string {
	errbuf := (*C.char)(C.malloc(512))
	defer C.free(unsafe.Pointer(errbuf))
	mc := C.mock_new(errbuf, 512)
	if mc == nil {
		fail("mock cluster: %s", C.GoString(errbuf))
	}
	for _, n := range counts {
		name := C.CString(topicName(n))
		err := C.rd_kafka_mock_topic_create(mc, name, C.int(n), 1)
		C.free(unsafe.Pointer(name))
		if err != 0 {
			fail("rd_kafka_mock_topic_create %d: %s", n, C.GoString(C.rd_kafka_err2str(err)))
		}
	}
	return C.GoString(C.rd_kafka_mock_cluster_bootstraps(mc))
}

// partitionsOf produces every key to one topic per count and returns [key][count] partitions, a
// row of -1 for a key whose two copies went to different partitions.
func partitionsOf(bootstrap, partitioner string, keys [][]byte) [][]int32 {
	conf := &kafka.ConfigMap{
		"bootstrap.servers":             bootstrap,
		"linger.ms":                     5,
		"sticky.partitioning.linger.ms": 0,
		"queue.buffering.max.messages":  2 * len(keys),
		"log_level":                     3,
	}
	if partitioner != "" {
		(*conf)["partitioner"] = partitioner
	}
	p, err := kafka.NewProducer(conf)
	if err != nil {
		fail("NewProducer: %v", err)
	}
	defer p.Close()
	out := make([][]int32, len(keys))
	again := make([][]int32, len(keys))
	for k := range out {
		out[k] = make([]int32, len(counts))
		again[k] = make([]int32, len(counts))
	}
	for c, n := range counts {
		topic := topicName(n)
		pending := 0
		for k, key := range keys {
			copies := 1
			if len(key) == 0 {
				copies = 2
			}
			for i := 0; i < copies; i++ {
				msg := &kafka.Message{
					TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
					Key:            key,
					Opaque:         delivery{k, c, i == 1},
				}
				for {
					err := p.Produce(msg, nil)
					if err == nil {
						break
					}
					if e, ok := err.(kafka.Error); !ok || e.Code() != kafka.ErrQueueFull {
						fail("Produce: %v", err)
					}
					pending -= drain(p, out, again, n, 1)
				}
				pending++
			}
		}
		for pending > 0 {
			pending -= drain(p, out, again, n, pending)
		}
	}
	for k, key := range keys {
		if len(key) != 0 {
			continue
		}
		for c := range counts {
			if out[k][c] != again[k][c] {
				for i := range out[k] {
					out[k][i] = -1
				}
				break
			}
		}
	}
	return out
}

// drain records at least min delivery reports (up to what is ready) and returns how many it read.
func drain(p *kafka.Producer, out, again [][]int32, n int, min int) int {
	read := 0
	for read < min {
		ev := <-p.Events()
		m, ok := ev.(*kafka.Message)
		if !ok {
			if e, isErr := ev.(kafka.Error); isErr {
				fail("producer error: %v", e)
			}
			continue
		}
		if m.TopicPartition.Error != nil {
			fail("delivery failed: %v", m.TopicPartition.Error)
		}
		d := m.Opaque.(delivery)
		if m.TopicPartition.Partition < 0 || int(m.TopicPartition.Partition) >= n {
			fail("partition %d of %d", m.TopicPartition.Partition, n)
		}
		if d.again {
			again[d.key][d.count] = m.TopicPartition.Partition
		} else {
			out[d.key][d.count] = m.TopicPartition.Partition
		}
		read++
	}
	return read
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: producer <confluent-kafka-go version> < keys.txt")
		os.Exit(2)
	}
	var lines []string
	var keys [][]byte
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		line := in.Text()
		if !strings.HasPrefix(line, "b:") {
			continue
		}
		key, err := hex.DecodeString(line[2:])
		if err != nil {
			fail("bad hex: %.40s: %v", line, err)
		}
		lines = append(lines, line)
		keys = append(keys, key)
	}
	partitioners := []string{"", "murmur2_random"}
	names := []string{"default", "murmur2_random"}
	bootstrap := startMock()
	results := make([][][]int32, len(partitioners))
	for i, name := range partitioners {
		results[i] = partitionsOf(bootstrap, name, keys)
	}
	_, rdVersion := kafka.LibraryVersion()
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	fmt.Fprintf(w, "# client: confluent-kafka-go %s, Producer delivery reports (Debian golang-github-confluentinc-confluent-kafka-go-dev)\n", os.Args[1])
	fmt.Fprintf(w, "# runtime: librdkafka %s, %s\n", rdVersion, runtime.Version())
	fmt.Fprintln(w, "# generator: compat/confluent-kafka-go/producer.go (a Producer on librdkafka's mock cluster, PartitionAny)")
	fmt.Fprint(w, "# counts:")
	for _, c := range counts {
		fmt.Fprintf(w, " %d", c)
	}
	fmt.Fprintf(w, "\n# partitioners: %s\n", strings.Join(names, " "))
	fmt.Fprintln(w, "# row: key, then per partitioner the partition for each count (comma-separated); * = random (two copies differed), =N = same as column N")
	for k, line := range lines {
		w.WriteString(line)
		cells := make([]string, len(partitioners))
		for i := range partitioners {
			if results[i][k][0] < 0 {
				cells[i] = "*"
			} else {
				s := make([]string, len(counts))
				for c := range counts {
					s[c] = strconv.Itoa(int(results[i][k][c]))
				}
				cells[i] = strings.Join(s, ",")
			}
			same := -1
			for q := 0; q < i && same < 0; q++ {
				if cells[q] == cells[i] {
					same = q
				}
			}
			if same >= 0 {
				fmt.Fprintf(w, "\t=%d", same+1)
			} else {
				fmt.Fprintf(w, "\t%s", cells[i])
			}
		}
		w.WriteString("\n")
	}
}
