// Fuzz inputs. A case is bytes to write to the server's stdin (whole lines, each ending in
// "\n") plus a label saying how it was made. Whether and how the server must answer is
// decided later, from the bytes alone (oracle.ts), so a mutation that happens to produce a
// valid request is judged as one.

import { EXAMPLES, type Example } from './corpus.js';
import { type Json, fromValue, nested, obj, paths, raw, replaceAt, toText, withKey, isJsonObject } from './json-text.js';
import type { Rng } from './prng.js';

export interface FuzzCase {
  /** Which generator, and what it did: printed in reports and fixture headers. */
  readonly label: string;
  readonly bytes: Buffer;
}

export interface GeneratorOptions {
  /** Scale of the big inputs (deep nesting, huge strings): 1 for the full size, less in quick runs. */
  readonly bigScale: number;
}

/** Ids unique within one server session, so every response names the one request it answers. */
export class IdSource {
  private counter = 0;
  constructor(private readonly prefix: string) {}
  next(rng: Rng): Json {
    this.counter += 1;
    return rng.chance(0.5) ? `${this.prefix}${this.counter}` : this.counter + 1_000_000 * (this.prefix.length + 1);
  }
}

export function messageOf(example: Example, id: Json | undefined): Json {
  const entries: [string, Json][] = [['jsonrpc', '2.0']];
  if (!example.notification && id !== undefined) entries.push(['id', id]);
  entries.push(['method', example.method]);
  if (example.params !== undefined) entries.push(['params', fromValue(example.params)]);
  return obj(entries);
}

const line = (message: Json): string => `${toText(message)}\n`;
const lineBytes = (message: Json): Buffer => Buffer.from(line(message), 'utf8');

/** Values of every JSON type and then some, for putting where another type belongs. */
export function wrongValues(bigScale: number): Json[] {
  return [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    '',
    'x',
    'PROJ-101',
    [],
    obj([]),
    [1, 'a', null],
    obj([['a', 1]]),
    raw('1e400'),
    raw('-0.0'),
    raw('9007199254740993'),
    raw('1E-7'),
    'é€😀\u2028\u0000',
    'x'.repeat(Math.max(1, Math.floor(10_000 * bigScale))),
    nested(Math.max(2, Math.floor(1000 * bigScale))),
  ];
}

/** Every (example, field, wrong value) combination: the exhaustive part of the wrong-types fuzzing. */
export function* everyWrongType(ids: IdSource, rng: Rng, options: GeneratorOptions): Generator<FuzzCase> {
  const values = wrongValues(options.bigScale);
  for (const example of EXAMPLES) {
    // A fresh id for every variant: one reused id would make answers ambiguous.
    const fresh = (): Json => messageOf(example, ids.next(rng));
    for (const path of paths(fresh())) {
      for (const value of values) {
        yield {
          label: `wrong-type ${example.method} ${path.join('.')} = ${describe(value)}`,
          bytes: lineBytes(replaceAt(fresh(), path, value)),
        };
      }
    }
    // Missing fields count as wrong too: drop each key of params in turn.
    for (const path of paths(fresh()).filter((p) => p[0] === 'params')) {
      yield { label: `missing ${example.method} ${path.join('.')}`, bytes: lineBytes(dropAt(fresh(), path)) };
    }
  }
}

function dropAt(node: Json, path: readonly (string | number)[]): Json {
  const [head, ...rest] = path;
  if (isJsonObject(node)) {
    return obj(
      rest.length === 0
        ? node.$obj.filter(([k]) => k !== head)
        : node.$obj.map(([k, v]) => [k, k === head ? dropAt(v, rest) : v]),
    );
  }
  if (Array.isArray(node))
    return rest.length === 0 ? node.filter((_, i) => i !== head) : node.map((v, i) => (i === head ? dropAt(v, rest) : v));
  return node;
}

function describe(value: Json): string {
  const text = toText(value);
  return text.length > 24 ? `${text.slice(0, 12)}…(${text.length} chars)` : text;
}

type Generator1 = (rng: Rng, ids: IdSource, options: GeneratorOptions) => FuzzCase;

const randomExample = (rng: Rng, ids: IdSource): { example: Example; message: Json } => {
  const example = rng.pick(EXAMPLES);
  return { example, message: messageOf(example, ids.next(rng)) };
};

const valid: Generator1 = (rng, ids) => {
  const { example, message } = randomExample(rng, ids);
  return { label: `valid ${example.method}`, bytes: lineBytes(message) };
};

const wrongType: Generator1 = (rng, ids, options) => {
  const { example, message } = randomExample(rng, ids);
  const path = rng.pick(paths(message));
  const value = rng.pick(wrongValues(options.bigScale));
  return {
    label: `wrong-type ${example.method} ${path.join('.')} = ${describe(value)}`,
    bytes: lineBytes(replaceAt(message, path, value)),
  };
};

const TOKENS = ['"', '{', '}', '[', ']', ',', ':', '\\', 'null', '"__proto__":', '\r', ' ', '\n'];

/** Byte-level damage to a valid line: flips, inserts, deletes, truncation, splices. */
const mutated: Generator1 = (rng, ids) => {
  const { example, message } = randomExample(rng, ids);
  let bytes = Buffer.from(toText(message), 'utf8');
  const steps = rng.range(1, 4);
  const done: string[] = [];
  for (let i = 0; i < steps; i++) {
    const at = rng.int(bytes.length + 1);
    const how = rng.int(6);
    if (how === 0) bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + rng.range(1, 8)))]);
    else if (how === 1) bytes = Buffer.concat([bytes.subarray(0, at), rng.bytes(rng.range(1, 4)), bytes.subarray(at)]);
    else if (how === 2 && at < bytes.length) bytes[at] = (bytes[at] ?? 0) ^ (1 << rng.int(8));
    else if (how === 3) bytes = bytes.subarray(0, at);
    else if (how === 4) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(rng.pick(TOKENS)), bytes.subarray(at)]);
    else bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(rng.int(bytes.length + 1))]);
    done.push(['delete', 'insert', 'flip', 'truncate', 'token', 'splice'][how] ?? '?');
  }
  // A mutation may insert a newline: then this is two lines, as a client bug would make it.
  return { label: `mutated ${example.method} (${done.join(', ')})`, bytes: Buffer.concat([bytes, Buffer.from('\n')]) };
};

const randomBytes: Generator1 = (rng) => {
  const bytes = rng.bytes(rng.range(0, 300));
  return { label: `random bytes (${bytes.length})`, bytes: Buffer.concat([bytes, Buffer.from('\n')]) };
};

/** Deep nesting in params, in the id, in the envelope, or as the whole line. */
const deep: Generator1 = (rng, ids, options) => {
  const depth = Math.max(10, Math.floor(rng.pick([1000, 10_000, 100_000]) * options.bigScale));
  const kind = rng.pick(['array', 'object'] as const);
  const where = rng.int(4);
  const { example, message } = randomExample(rng, ids);
  let target: Json;
  if (where === 0) target = nested(depth, kind);
  else if (where === 1) target = replaceAt(message, ['id'], nested(depth, kind));
  else {
    const fieldPaths = paths(message).filter((p) => p[0] === 'params');
    target =
      fieldPaths.length > 0 && where === 2
        ? replaceAt(message, rng.pick(fieldPaths), nested(depth, kind))
        : withKey(message, 'params', obj([['deep', nested(depth, kind)]]));
  }
  return {
    label: `deep ${kind} ${depth} (${['whole line', 'id', 'field', 'params'][where]}) ${example.method}`,
    bytes: lineBytes(target),
  };
};

/** A huge string, or a huge array, at a random field. */
const huge: Generator1 = (rng, ids, options) => {
  const { example, message } = randomExample(rng, ids);
  const size = Math.max(10, Math.floor(rng.pick([100_000, 1_000_000]) * options.bigScale));
  const value: Json = rng.chance(0.5)
    ? raw(JSON.stringify(rng.pick(['a', 'é', '\\', '😀']).repeat(size)))
    : raw(
        `[${Array(Math.floor(size / 10))
          .fill(rng.pick(['0', '"x"', 'null', '{}']))
          .join(',')}]`,
      );
  const path = rng.pick(paths(message));
  return { label: `huge ${example.method} ${path.join('.')}`, bytes: lineBytes(replaceAt(message, path, value)) };
};

/** Invalid UTF-8 inside a string of a valid message, or in its structure. */
const invalidUtf8: Generator1 = (rng, ids) => {
  const { example, message } = randomExample(rng, ids);
  const text = Buffer.from(toText(message), 'utf8');
  const bad = rng.pick([
    [0xff],
    [0xc0, 0xaf],
    [0xe2, 0x82],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0x80],
    [0xf0, 0x9f, 0x98],
  ]);
  const quote = text.indexOf(0x22, rng.int(text.length));
  const at = quote === -1 ? rng.int(text.length + 1) : quote + 1;
  return {
    label: `invalid utf-8 ${example.method} ${Buffer.from(bad).toString('hex')}`,
    bytes: Buffer.concat([text.subarray(0, at), Buffer.from(bad), text.subarray(at), Buffer.from('\n')]),
  };
};

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
/** Fields an unguarded merge would let leak into every object: the probes in harness.ts look for them. */
const POISON = obj([
  ['fuzzCanary', 'polluted'],
  ['title', 'polluted'],
  ['project', 'PROJ'],
  ['key', 'PROJ-101'],
  ['status', 'done'],
  ['issue_key', 'PROJ-101'],
  ['name', 'polluted'],
  ['prototype', obj([['fuzzCanary', 1]])],
  ['polluted', true],
]);

/** A "__proto__", "constructor" or "prototype" key in some object of a message. */
const protoKeys: Generator1 = (rng, ids) => {
  const { example, message } = randomExample(rng, ids);
  const objectPaths = [[] as (string | number)[], ...paths(message)].filter((p) => isJsonObject(getAt(message, p)));
  const path = rng.pick(objectPaths);
  const key = rng.pick(PROTO_KEYS);
  const value = rng.pick<Json>([POISON, 'x', null, 1, [POISON]]);
  const target = replaceAt(message, path, withKey(getAt(message, path), key, value, rng.chance(0.5)));
  return { label: `proto key ${key} at ${path.join('.') || '(message)'} of ${example.method}`, bytes: lineBytes(target) };
};

function getAt(node: Json, path: readonly (string | number)[]): Json {
  let here = node;
  for (const step of path) {
    if (isJsonObject(here)) here = here.$obj.find(([k]) => k === step)?.[1] ?? null;
    else if (Array.isArray(here)) here = here[step as number] ?? null;
    else return null;
  }
  return here;
}

/** Framing oddities: CRLF, BOM, blank lines, whitespace, several messages in one write. */
const framing: Generator1 = (rng, ids) => {
  const parts = Array.from({ length: rng.range(1, 4) }, () => toText(randomExample(rng, ids).message));
  const glue = rng.pick(['\n', '\r\n', '\n\n', '\n \t\n']);
  const bom = rng.chance(0.3) ? '\uFEFF' : '';
  return {
    label: `framing ${JSON.stringify(glue)}${bom ? ' with BOM' : ''} x${parts.length}`,
    bytes: Buffer.from(bom + parts.join(glue) + glue, 'utf8'),
  };
};

/** A batch (an array of messages): answered as one only in a 2025-03-26 session. */
const batch: Generator1 = (rng, ids) => {
  const items = Array.from({ length: rng.range(0, 5) }, () =>
    rng.chance(0.2) ? rng.pick<Json>([1, 'x', null, []]) : randomExample(rng, ids).message,
  );
  return { label: `batch of ${items.length}`, bytes: lineBytes(items) };
};

/** A request, then its cancellation: the request may be answered or not, never twice. */
const cancel: Generator1 = (rng, ids) => {
  const id = ids.next(rng);
  const request = messageOf(rng.pick(EXAMPLES.filter((e) => !e.notification && e.method !== 'initialize')), id);
  const cancelled = obj([
    ['jsonrpc', '2.0'],
    ['method', 'notifications/cancelled'],
    [
      'params',
      obj([
        ['requestId', id],
        ['reason', 'fuzz'],
      ]),
    ],
  ]);
  return { label: 'request then cancel', bytes: Buffer.from(line(request) + line(cancelled), 'utf8') };
};

/** Envelope damage: every envelope key given every wrong value, or removed. */
const envelope: Generator1 = (rng, ids, options) => {
  const { example, message } = randomExample(rng, ids);
  const key = rng.pick(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);
  const value = rng.pick(wrongValues(options.bigScale));
  const target =
    isJsonObject(message) && message.$obj.some(([k]) => k === key)
      ? replaceAt(message, [key], value)
      : withKey(message, key, value);
  return { label: `envelope ${example.method} ${key} = ${describe(value)}`, bytes: lineBytes(target) };
};

const GENERATORS: [Generator1, number][] = [
  [valid, 8],
  [wrongType, 20],
  [mutated, 20],
  [randomBytes, 6],
  [deep, 2],
  [huge, 2],
  [invalidUtf8, 6],
  [protoKeys, 12],
  [framing, 5],
  [batch, 5],
  [cancel, 4],
  [envelope, 10],
];
const TOTAL_WEIGHT = GENERATORS.reduce((sum, [, weight]) => sum + weight, 0);

/** One random case; the big generators are weighted low so a run stays fast. */
export function randomCase(rng: Rng, ids: IdSource, options: GeneratorOptions): FuzzCase {
  let roll = rng.int(TOTAL_WEIGHT);
  for (const [generate, weight] of GENERATORS) {
    if (roll < weight) return generate(rng, ids, options);
    roll -= weight;
  }
  return valid(rng, ids, options);
}

/** One case of each big kind, so every run (even a short one) has them. */
export function bigCases(rng: Rng, ids: IdSource, options: GeneratorOptions): FuzzCase[] {
  return [deep(rng, ids, options), huge(rng, ids, options), deep(rng, ids, options), huge(rng, ids, options)];
}
