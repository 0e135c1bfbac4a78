// Command balancers prints segmentio/kafka-go's balancers' choices for keys, for routing-core's
// cross-client vectors.
//
// It reads the key list (compat/make-keys.py's format, uncompressed) on stdin and writes one TSV
// row per byte key (b:<hex>) and for the null key: the key, then per balancer the partition for
// each count, comma-separated. The balancers are kafka-go's own types, called through
// Balancer.Balance with a Message whose Key holds the bytes (the null key: Key nil; the empty key:
// a non-nil empty slice) and the partition list a Writer passes, 0 .. n-1. Each call is made twice;
// a balancer whose two passes differ for a key is written "*" (random or round-robin). A cell equal
// to an earlier column's is written "=<column>" (1-based).
//
// RoundRobin is the Writer's balancer when none is set: its column shows that it ignores keys.
//
// Build in GOPATH mode against Debian's golang-github-segmentio-kafka-go-dev (0.4.x):
//
//	GO111MODULE=off GOPATH=<dir>:/usr/share/gocode go build -o balancers balancers.go
//
// Usage: balancers <kafka-go version> < keys.txt
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	kafka "github.com/segmentio/kafka-go"
)

var counts = []int{1, 2, 3, 7, 12, 24, 100, 997, 1024, 65537}

type named struct {
	name string
	b    kafka.Balancer
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: balancers <kafka-go version> < keys.txt")
		os.Exit(2)
	}
	balancers := []named{
		{"Hash", &kafka.Hash{}},
		{"ReferenceHash", &kafka.ReferenceHash{}},
		{"Murmur2Balancer", kafka.Murmur2Balancer{}},
		{"Murmur2Balancer{Consistent:true}", kafka.Murmur2Balancer{Consistent: true}},
		{"CRC32Balancer", kafka.CRC32Balancer{}},
		{"CRC32Balancer{Consistent:true}", kafka.CRC32Balancer{Consistent: true}},
		{"RoundRobin", &kafka.RoundRobin{}},
	}
	partitions := make([][]int, len(counts))
	for c, n := range counts {
		partitions[c] = make([]int, n)
		for i := range partitions[c] {
			partitions[c][i] = i
		}
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	fmt.Fprintln(out, "# client: kafka-go (github.com/segmentio/kafka-go) 0.4 balancers (Debian golang-github-segmentio-kafka-go-dev)")
	fmt.Fprintf(out, "# runtime: kafka-go %s, %s\n", os.Args[1], runtime.Version())
	fmt.Fprintln(out, "# generator: compat/kafka-go/balancers.go (kafka-go's balancers' Balance method, partitions 0..n-1 as a Writer passes them)")
	fmt.Fprint(out, "# counts:")
	for _, c := range counts {
		fmt.Fprintf(out, " %d", c)
	}
	fmt.Fprint(out, "\n# partitioners:")
	for _, b := range balancers {
		fmt.Fprintf(out, " %s", b.name)
	}
	fmt.Fprintln(out, "\n# row: key, then per partitioner the partition for each count (comma-separated); * = random (two calls differed), =N = same as column N")

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			break
		}
		line = strings.TrimRight(line, "\r\n")
		var msg kafka.Message
		switch {
		case line == "null":
			msg = kafka.Message{}
		case strings.HasPrefix(line, "b:"):
			key, err := hex.DecodeString(line[2:])
			if err != nil {
				fmt.Fprintf(os.Stderr, "bad hex: %.40s: %v\n", line, err)
				os.Exit(2)
			}
			msg = kafka.Message{Key: append([]byte{}, key...)} // non-nil, also when empty
		default:
			continue
		}
		out.WriteString(line)
		cells := make([]string, len(balancers))
		for i, b := range balancers {
			first := make([]int, len(counts))
			random := false
			for pass := 0; pass < 2; pass++ {
				for c, n := range counts {
					r := b.b.Balance(msg, partitions[c]...)
					if r < 0 || r >= n {
						fmt.Fprintf(os.Stderr, "%s gave %d for %d partitions: %.40s\n", b.name, r, n, line)
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
					s[c] = strconv.Itoa(r)
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
