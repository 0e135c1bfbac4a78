'use strict'
/*
 * Prints KafkaJS's partitioners' choices for keys, for routing-core's cross-client vectors.
 *
 * Reads the key list (compat/make-keys.py's format, uncompressed) on stdin and writes one TSV row
 * per key: the key, then per partitioner the partition for each count, comma-separated. The
 * partitioners are KafkaJS's own, created as a producer creates them (createPartitioner()) and
 * called as the producer calls them, with { topic, partitionMetadata, message }:
 *   2.2.4 Partitioners.DefaultPartitioner (the 2.x default, Java-compatible murmur2),
 *   2.2.4 Partitioners.LegacyPartitioner (the 1.x default),
 *   1.16.0 Partitioners.DefaultPartitioner (the 1.x default itself),
 *   1.16.0 Partitioners.JavaCompatiblePartitioner.
 * A byte key (b:<hex>) is given as a Buffer; when its bytes are well-formed UTF-8 it is also given
 * as the JavaScript string they decode to, and the generator fails unless every partitioner puts
 * the string where it put the Buffer (so the rows hold for string keys too). An s:<hex> row is a
 * JavaScript string of those UTF-16 code units (Node encodes unpaired surrogates as U+FFFD); null
 * is a message with key null. Each call is made twice; a partitioner whose two passes differ for
 * a key is written "*" (keyless messages go round-robin). A cell equal to an earlier column's is
 * written "=<column>" (1-based).
 *
 * Usage: node partitioners.js < keys.txt
 */
const readline = require('readline')
const v2 = require('kafkajs')
const v1 = require('kafkajs-1')
const v2version = require('kafkajs/package.json').version
const v1version = require('kafkajs-1/package.json').version

const COUNTS = [1, 2, 3, 7, 12, 24, 100, 997, 1024, 65537]
const TOPIC = 'routingkit-vectors'
const PARTITIONERS = [
  [`kafkajs@${v2version}:DefaultPartitioner`, v2.Partitioners.DefaultPartitioner],
  [`kafkajs@${v2version}:LegacyPartitioner`, v2.Partitioners.LegacyPartitioner],
  [`kafkajs@${v1version}:DefaultPartitioner`, v1.Partitioners.DefaultPartitioner],
  [`kafkajs@${v1version}:JavaCompatiblePartitioner`, v1.Partitioners.JavaCompatiblePartitioner],
].map(([name, create]) => ({ name, partition: create() }))

// One metadata array per count, every partition with a leader. The partitioners filter it for
// available partitions on every call; that filter returns the same (all available) partitions
// each time, so it is answered from a copy instead of being recomputed over 65537 entries.
const METADATA = COUNTS.map(n => {
  const all = Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0 }))
  const metadata = all.slice()
  const available = all.slice()
  metadata.filter = () => available
  return metadata
})

function partitions(p, key) {
  const first = []
  let random = false
  for (let pass = 0; pass < 2; pass++) {
    COUNTS.forEach((n, c) => {
      const r = p.partition({ topic: TOPIC, partitionMetadata: METADATA[c], message: { key, value: null } })
      if (!Number.isInteger(r) || r < 0 || r >= n) {
        throw new Error(`${p.name} gave ${r} for ${n} partitions`)
      }
      if (pass === 0) first.push(r)
      else if (r !== first[c]) random = true
    })
  }
  return random ? '*' : first.join(',')
}

function cellsFor(key) {
  return PARTITIONERS.map(p => partitions(p, key))
}

const out = []
const write = s => {
  out.push(s)
  if (out.length >= 1000) process.stdout.write(out.splice(0).join(''))
}
write(`# client: KafkaJS ${v2version} and ${v1version} (npm)\n`)
write(`# runtime: Node.js ${process.version}\n`)
write('# generator: compat/kafkajs/partitioners.js (KafkaJS\'s partitioners, called as its producer calls them)\n')
write(`# counts: ${COUNTS.join(' ')}\n`)
write(`# partitioners: ${PARTITIONERS.map(p => p.name).join(' ')}\n`)
write('# row: key, then per partitioner the partition for each count (comma-separated); * = random (two calls differed), =N = same as column N\n')
write('# string keys: every b: key that is well-formed UTF-8 was also given as a JavaScript string, with the same result\n')

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
rl.on('line', line => {
  let cells
  if (line === 'null') {
    cells = cellsFor(null)
  } else if (line.startsWith('b:')) {
    const buf = Buffer.from(line.slice(2), 'hex')
    if (buf.toString('hex') !== line.slice(2)) throw new Error(`bad hex: ${line.slice(0, 40)}`)
    cells = cellsFor(buf)
    const text = buf.toString('utf8')
    if (Buffer.from(text, 'utf8').equals(buf)) {
      const textCells = cellsFor(text)
      if (textCells.join('\t') !== cells.join('\t')) {
        throw new Error(`string key placed differently from its bytes: ${line.slice(0, 40)}`)
      }
    }
  } else if (line.startsWith('s:')) {
    const hex = line.slice(2)
    let text = ''
    for (let i = 0; i < hex.length; i += 4) text += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16))
    cells = cellsFor(text)
  } else {
    return
  }
  const row = cells.map((c, i) => {
    const same = cells.indexOf(c)
    return same < i ? `=${same + 1}` : c
  })
  write(`${line}\t${row.join('\t')}\n`)
})
rl.on('close', () => process.stdout.write(out.join('')))
