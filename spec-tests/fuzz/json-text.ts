// JSON text built by hand. JSON.stringify cannot write what the fuzzer needs: an own key
// named "__proto__", duplicate keys, numbers like 1e400 or -0, or a value spliced in as raw
// text (100k nested arrays would overflow a recursive serializer). So messages are trees of
// `Json` nodes and `toText` writes them iteratively.

export type Json = null | boolean | number | string | Json[] | JsonObject | RawJson;
export interface JsonObject {
  readonly $obj: [string, Json][];
}
export interface RawJson {
  readonly $raw: string;
}

export const obj = (entries: [string, Json][]): JsonObject => ({ $obj: entries });
export const raw = (text: string): RawJson => ({ $raw: text });

const isObj = (value: Json): value is JsonObject => typeof value === 'object' && value !== null && '$obj' in value;
const isRaw = (value: Json): value is RawJson => typeof value === 'object' && value !== null && '$raw' in value;

/** A plain JS value (as JSON.parse returns) as a tree; keys keep their order. */
export function fromValue(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(fromValue);
  if (typeof value === 'object') return obj(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromValue(v)]));
  throw new Error(`not JSON: ${typeof value}`);
}

/** Compact JSON text. Iterative: depth is limited only by memory. */
export function toText(root: Json): string {
  const out: string[] = [];
  // A stack of things still to write: nodes, or literal text (closing brackets, commas).
  const stack: (Json | { text: string })[] = [root];
  while (stack.length > 0) {
    const item = stack.pop() as Json | { text: string };
    if (item !== null && typeof item === 'object' && 'text' in item && !Array.isArray(item)) {
      out.push(item.text);
      continue;
    }
    const node = item as Json;
    if (isRaw(node)) out.push(node.$raw);
    else if (isObj(node)) pushObject(node, out, stack);
    else if (Array.isArray(node)) pushArray(node, out, stack);
    else out.push(JSON.stringify(node));
  }
  return out.join('');
}

function pushArray(node: Json[], out: string[], stack: (Json | { text: string })[]): void {
  out.push('[');
  stack.push({ text: ']' });
  for (let i = node.length - 1; i >= 0; i--) {
    stack.push(node[i] as Json);
    if (i > 0) stack.push({ text: ',' });
  }
}

function pushObject(node: JsonObject, out: string[], stack: (Json | { text: string })[]): void {
  out.push('{');
  stack.push({ text: '}' });
  for (let i = node.$obj.length - 1; i >= 0; i--) {
    const [key, value] = node.$obj[i] as [string, Json];
    stack.push(value);
    stack.push({ text: `${JSON.stringify(key)}:` });
    if (i > 0) stack.push({ text: ',' });
  }
}

/** `depth` nested arrays (or objects) as raw text, around an optional core. */
export function nested(depth: number, kind: 'array' | 'object' = 'array', core = ''): RawJson {
  return kind === 'array'
    ? raw('['.repeat(depth) + core + ']'.repeat(depth))
    : raw('{"a":'.repeat(depth) + (core || '1') + '}'.repeat(depth));
}

/** Every path to a value inside `node` (objects and arrays), outermost first. */
export function paths(node: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [];
  if (isObj(node)) {
    for (const [key, value] of node.$obj) {
      found.push([...prefix, key], ...paths(value, [...prefix, key]));
    }
  } else if (Array.isArray(node)) {
    node.forEach((value, index) => found.push([...prefix, index], ...paths(value, [...prefix, index])));
  }
  return found;
}

/** A copy of `node` with the value at `path` replaced. */
export function replaceAt(node: Json, path: readonly (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (isObj(node)) return obj(node.$obj.map(([k, v]) => [k, k === head ? replaceAt(v, rest, value) : v]));
  if (Array.isArray(node)) return node.map((v, i) => (i === head ? replaceAt(v, rest, value) : v));
  return node;
}

/** A copy of the object `node` with one more key (which may be "__proto__" or a duplicate). */
export function withKey(node: Json, key: string, value: Json, first = false): Json {
  if (!isObj(node)) return node;
  return obj(first ? [[key, value], ...node.$obj] : [...node.$obj, [key, value]]);
}

export const isJsonObject = isObj;
