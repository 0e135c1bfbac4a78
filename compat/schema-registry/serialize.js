// Serializes key values with Confluent's own JavaScript serializers (@confluentinc/schemaregistry,
// pinned by package-lock.json) against its in-process MockClient registry, for routing-core's
// key-format vectors: each value under several schema ids of the same subject, in Avro, JSON Schema
// and Protobuf (three message types: message indexes [0], [1] and [0, 0]).
//
// Reads the key list (compat/make-keys.py's format, uncompressed) on stdin and uses the first 2000
// keys that are well-formed UTF-8 text, plus a few edge strings, as key values. Writes one TSV row
// per serialized key: the serializer, the schema id, the serialized key (hex), and the header
// length that the library's own parser (SchemaId.fromBytes, what its deserializers call) reads
// from it; the rest of the key is the payload a routing.key.format must hash.
//
// Usage: node serialize.js < keys.txt
'use strict';
const readline = require('readline');
const sr = require('@confluentinc/schemaregistry');
const { create, createFileRegistry, createMutableRegistry } = require('@bufbuild/protobuf');
const { FileDescriptorProtoSchema } = require('@bufbuild/protobuf/wkt');

const VALUES = 2000;
const TYPE_STRING = 9;
const LABEL_OPTIONAL = 1;

function stringField(name, number) {
  return { name, number, type: TYPE_STRING, label: LABEL_OPTIONAL, jsonName: name };
}

// the key.proto of schema version v: v2 adds a field to Key, a compatible change that registers a
// new schema id and leaves the encoding of a key that does not set it unchanged
function protoFile(v) {
  const key = { name: 'Key', field: [stringField('id', 1)], nestedType: [{ name: 'Inner', field: [stringField('x', 1)] }] };
  if (v === 2) key.field.push(stringField('note', 2));
  const fdp = create(FileDescriptorProtoSchema, {
    name: `routingkit/key_v${v}.proto`, package: `routingkit.v${v}`, syntax: 'proto3',
    messageType: [key, { name: 'Other', field: [stringField('name', 1)] }],
  });
  return createFileRegistry(fdp, () => undefined);
}

async function main() {
  const values = [];
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const line of rl) {
    if (values.length >= VALUES) continue;
    if (!line.startsWith('b:') || line.length === 2) continue;
    try {
      values.push(decoder.decode(Buffer.from(line.slice(2), 'hex')));
    } catch (e) {
      // not UTF-8 text: not a string key value
    }
  }
  values.push('', ' ', '\u0000', 'ÿ', '日本語のキー', 'user-😀', 'x'.repeat(300));

  const client = new sr.MockClient({});
  // ids above 255 (and so more than one non-zero byte): register unrelated schemas first
  for (let i = 0; i < 300; i++) {
    await client.register(`filler-${i}`, { schemaType: 'AVRO', schema: JSON.stringify({ type: 'int', doc: `${i}` }) });
  }
  const rows = [];
  const emit = (serializer, type, id, buf) => {
    const schemaId = new sr.SchemaId(type);
    const header = schemaId.fromBytes(buf);
    if (schemaId.id !== id) throw new Error(`${serializer}: id ${schemaId.id} read back, ${id} written`);
    rows.push(`${serializer}\t${id}\t${buf.toString('hex')}\t${header}`);
  };

  // Avro: a string key, and a record key; two versions each (v2 adds a doc)
  const avro = [
    ['avro-string', v => ({ type: 'string', doc: v === 2 ? 'the key' : undefined }), s => s],
    ['avro-record', v => ({ type: 'record', name: 'Key', namespace: 'routingkit', doc: v === 2 ? 'the key' : undefined, fields: [{ name: 'id', type: 'string' }] }), s => ({ id: s })],
  ];
  // the topic is the serializer's name, so the subject is "<name>-key" (TopicNameStrategy)
  for (const [name, schema, value] of avro) {
    for (const v of [1, 2]) {
      const id = await client.register(`${name}-key`, { schemaType: 'AVRO', schema: JSON.stringify(schema(v)) });
      const ser = new sr.AvroSerializer(client, sr.SerdeType.KEY, { useSchemaId: id });
      for (const s of values) emit(name, 'AVRO', id, await ser.serialize(name, value(s)));
    }
  }

  // JSON Schema: an object key; two versions (v2 adds a description)
  for (const v of [1, 2]) {
    const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    if (v === 2) schema.description = 'the key';
    const id = await client.register('json-key', { schemaType: 'JSON', schema: JSON.stringify(schema) });
    const ser = new sr.JsonSerializer(client, sr.SerdeType.KEY, { useSchemaId: id });
    for (const s of values) emit('json', 'JSON', id, await ser.serialize('json', { id: s }));
  }

  // Protobuf: Key ([0]), Other ([1]) and Key.Inner ([0, 0]), each auto-registered under its own
  // subject in two versions of the file
  const messages = [['protobuf-index-0', 'Key', 'id'], ['protobuf-index-1', 'Other', 'name'], ['protobuf-index-0-0', 'Key.Inner', 'x']];
  for (const [name, message, field] of messages) {
    for (const v of [1, 2]) {
      const registry = protoFile(v);
      const desc = registry.getMessage(`routingkit.v${v}.${message}`);
      const ser = new sr.ProtobufSerializer(client, sr.SerdeType.KEY, {
        autoRegisterSchemas: true, registry: createMutableRegistry(desc),
      });
      for (const s of values) {
        const buf = await ser.serialize(name, create(desc, { [field]: s }));
        emit(name, 'PROTOBUF', buf.readInt32BE(1), buf);
      }
    }
  }

  const out = [];
  out.push(`# client: @confluentinc/schemaregistry ${require('@confluentinc/schemaregistry/package.json').version} (npm), MockClient registry`);
  out.push(`# runtime: Node.js ${process.version}`);
  out.push('# generator: compat/schema-registry/serialize.js (AvroSerializer, JsonSerializer, ProtobufSerializer; header length from SchemaId.fromBytes)');
  out.push(`# values: ${values.length} (the first ${VALUES} UTF-8 keys of keys.txt and ${values.length - VALUES} edge strings), each under two schema ids`);
  out.push('# row: serializer, schema id, serialized key (hex), header length');
  process.stdout.write(out.concat(rows).join('\n') + '\n');
}

main().catch(e => { console.error(e); process.exit(1); });
