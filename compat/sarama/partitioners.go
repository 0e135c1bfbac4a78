// Command partitioners prints Sarama's hash partitioners' choices for keys, for routing-core's
// cross-client vectors.
//
// It reads the key list (compat/make-keys.py's format, uncompressed) on stdin and writes one TSV
// row per byte key (b:<hex>) and for the null key: the key, then per partitioner the partition
// for each count, comma-separated. The partitioners are Sarama's own constructors
// (NewHashPartitioner, the default; NewReferenceHashPartitioner; NewCustomPartitioner(WithAbsFirst()))
// called through Partitioner.Partition with a ProducerMessage whose Key is a ByteEncoder (the null
// key: Key nil). Each call is made twice; a partitioner whose two passes differ for a key is
// written "*" (random). A cell equal to an earlier column's is written "=<column>" (1-based).
//
// Build in GOPATH mode against Debian's golang-github-shopify-sarama-dev:
//
//	GO111MODULE=off GOPATH=<dir>:/usr/share/gocode go build -o partitioners partitioners.go
//
// Usage: partitioners <sarama version> < keys.txt
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/Shopify/sarama"
)

var counts = []int32{1, 2, 3, 7, 12, 24, 100, 997, 1024, 65537}

type named struct {
	name string
	p    sarama.Partitioner
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: partitioners <sarama version> < keys.txt")
		os.Exit(2)
	}
	const topic = "routingkit-vectors"
	parts := []named{
		{"NewHashPartitioner", sarama.NewHashPartitioner(topic)},
		{"NewReferenceHashPartitioner", sarama.NewReferenceHashPartitioner(topic)},
		{"NewCustomPartitioner(WithAbsFirst())", sarama.NewCustomPartitioner(sarama.WithAbsFirst())(topic)},
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	fmt.Fprintf(out, "# client: Sarama (github.com/Shopify/sarama) %s\n", os.Args[1])
	fmt.Fprintf(out, "# runtime: %s\n", runtime.Version())
	fmt.Fprintln(out, "# generator: compat/sarama/partitioners.go (Sarama's partitioners' Partition method)")
	fmt.Fprint(out, "# counts:")
	for _, c := range counts {
		fmt.Fprintf(out, " %d", c)
	}
	fmt.Fprint(out, "\n# partitioners:")
	for _, p := range parts {
		fmt.Fprintf(out, " %s", p.name)
	}
	fmt.Fprintln(out, "\n# row: key, then per partitioner the partition for each count (comma-separated); * = random (two calls differed), =N = same as column N")

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			break
		}
		line = strings.TrimRight(line, "\r\n")
		var msg *sarama.ProducerMessage
		switch {
		case line == "null":
			msg = &sarama.ProducerMessage{Topic: topic}
		case strings.HasPrefix(line, "b:"):
			key, err := hex.DecodeString(line[2:])
			if err != nil {
				fmt.Fprintf(os.Stderr, "bad hex: %.40s: %v\n", line, err)
				os.Exit(2)
			}
			msg = &sarama.ProducerMessage{Topic: topic, Key: sarama.ByteEncoder(key)}
		default:
			continue
		}
		out.WriteString(line)
		cells := make([]string, len(parts))
		for i, p := range parts {
			first := make([]int32, len(counts))
			random := false
			for pass := 0; pass < 2; pass++ {
				for c, n := range counts {
					r, err := p.p.Partition(msg, n)
					if err != nil || r < 0 || r >= n {
						fmt.Fprintf(os.Stderr, "%s gave %d (%v) for %d partitions: %.40s\n", p.name, r, err, n, line)
						os.Exit(3)
					}
					if pass == 0 {
						first[c] = r
					} else if r != first[c] {
						random = true
					}
				}
			}
			if random {
				cells[i] = "*"
			} else {
				s := make([]string, len(counts))
				for c, r := range first {
					s[c] = strconv.Itoa(int(r))
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
				fmt.Fprintf(out, "\t=%d", same+1)
			} else {
				fmt.Fprintf(out, "\t%s", cells[i])
			}
		}
		out.WriteString("\n")
	}
}
