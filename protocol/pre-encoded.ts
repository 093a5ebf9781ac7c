// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// JSON made once, sent many times. A tool's structuredContent is exactly the JSON of its text
// block, and a big resource's text is the same on every read: a PreEncoded holds that JSON, and
// encodeJson copies it into the line instead of encoding the value again. A whole result may be
// one too (a tool's, ping's): encodeLine (json-rpc.ts) then writes the envelope around it by
// hand. Encoded any other way, by a JSON.stringify of its own, a PreEncoded is the value it
// stands for. Node 21+ has JSON.rawJSON for this; Node 20 does not, hence the splice below.
//
// The trap is the difference between a text and its JSON: the JSON of the text `{"a":1}` is
// `"{\"a\":1}"`. A PreEncoded says which value it stands for, and is made only through a
// constructor that fits: `ofString` encodes a text itself, `ofJson` takes JSON made elsewhere
// and stands for a value of unknown type. So a place that wants a text (a resource's `text`)
// takes a PreEncoded<string>, and handing it JSON that was not encoded once more as a string
// is a type error, not a resource whose text arrives as an object.
//
// A large text read again and again (a 10 MB issue) is best kept as UTF-8 bytes
// (`ofStringAsBytes`): a line writer then hands those very bytes to the pipe or socket
// (`encodeJsonParts`), where a string would be encoded to UTF-8 again on every answer, 10 MB of
// work and garbage each time (issue 30).

import { randomBytes } from 'node:crypto';

export class PreEncoded<Value> {
  /** The value this JSON stands for; only the type checker sees it. */
  declare private readonly value: Value;
  readonly #json: string | undefined;
  /** The JSON as strings to write one after the other, when made by withFields. */
  readonly #parts: readonly string[] | undefined;
  /** The JSON as UTF-8 bytes in chunks, when made by ofStringAsBytes or stringBuilder; never written to. */
  readonly utf8: readonly Buffer[] | undefined;

  /**
   * `lineSafe`: the parts of `json` were made line-safe already. Scanning a string joined from
   * parts (a rope, to V8) copies it whole into a new string first, so a PreEncoded joined from
   * line-safe parts is not scanned again (docs/performance.md). Parts given as `{ parts }` are
   * line-safe and are never joined on the way to a pipe (`jsonParts`).
   */
  private constructor(json: string | readonly Buffer[] | { parts: readonly string[] }, lineSafe = false) {
    if (Array.isArray(json)) this.utf8 = json;
    else if (typeof json === 'object') this.#parts = (json as { parts: readonly string[] }).parts;
    // Made line-safe once, here, so that encodeJson never scans a big fragment again.
    else this.#json = lineSafe ? (json as string) : escapeLineSeparators(json as string);
  }

  /** The JSON text (decoded from the bytes, for one kept as bytes: a slow path no answer takes). */
  get json(): string {
    return this.#json ?? this.#parts?.join('') ?? Buffer.concat(this.utf8!).toString('utf8');
  }

  /**
   * The JSON text as strings to write one after the other, when made by withFields, for a
   * writer of bytes (json-rpc.ts encodeLineBytes): each goes into the bytes as it is, where
   * `json` would first copy a result joined with its fields into one new string (docs/performance.md).
   */
  get jsonParts(): readonly string[] | undefined {
    return this.#parts;
  }

  /** Its JSON's length in UTF-8 bytes, or characters for one kept as a string: what it holds in memory. */
  get size(): number {
    return (
      this.utf8?.reduce((sum, chunk) => sum + chunk.length, 0) ??
      this.#parts?.reduce((sum, part) => sum + part.length, 0) ??
      this.json.length
    );
  }

  /** A text, as its JSON string literal (quoted and escaped here). */
  static ofString(text: string): PreEncoded<string> {
    return new PreEncoded<string>(JSON.stringify(text));
  }

  /** A text, as its JSON string literal in UTF-8 bytes: for a large text written many times. */
  static ofStringAsBytes(text: string): PreEncoded<string> {
    const builder = PreEncoded.stringBuilder();
    builder.add(text);
    return builder.finish();
  }

  /**
   * ofStringAsBytes for a text given a piece at a time: for a text too large to print in one
   * go, whose maker lets other work run between its pieces. The text is the pieces joined.
   */
  static stringBuilder(): StringBuilder {
    const chunks: Buffer[] = [];
    let pending: string[] = ['"']; // escaped pieces not yet encoded, about CHUNK_CHARS at most
    let pendingChars = 0;
    let carried = ''; // a piece's last high surrogate, escaped with its pair from the next piece
    const push = (escaped: string) => {
      pending.push(escaped);
      pendingChars += escaped.length;
      if (pendingChars < CHUNK_CHARS) return;
      chunks.push(Buffer.from(pending.join(''), 'utf8'));
      [pending, pendingChars] = [[], 0];
    };
    const escaped = (text: string) => escapeLineSeparators(JSON.stringify(text).slice(1, -1));
    return {
      add(piece) {
        // A long piece in chunk-sized parts, so that a large text is chunks however it was given.
        for (let at = 0; at < piece.length; at += CHUNK_CHARS) {
          let text = carried + piece.slice(at, at + CHUNK_CHARS);
          carried = '';
          const last = text.charCodeAt(text.length - 1);
          if (last >= 0xd800 && last <= 0xdbff) [text, carried] = [text.slice(0, -1), text.slice(-1)];
          push(escaped(text));
        }
      },
      finish() {
        push(`${escaped(carried)}"`);
        if (pending.length > 0) chunks.push(Buffer.from(pending.join(''), 'utf8'));
        return new PreEncoded<string>(chunks);
      },
    };
  }

  /** JSON text already made by JSON.stringify, for a value whose type is not checked. */
  static ofJson(json: string): PreEncoded<unknown> {
    return new PreEncoded<unknown>(json);
  }

  /** A value, encoded here (a PreEncoded inside it is spliced in as it is). */
  static ofValue<Value>(value: Value): PreEncoded<Value> {
    return new PreEncoded<Value>(encodeJson(value), true);
  }

  /**
   * The text this stands for followed by `tail`: this text's JSON is not made again, only the
   * tail's. For a text made once that ends differently on each use (a timestamp at its end).
   */
  static ofStringThen(head: PreEncoded<string>, tail: string): PreEncoded<string> {
    // Kept as two parts, not joined: the joined text would be copied whole on its way to the pipe.
    return new PreEncoded<string>({ parts: [head.json.slice(0, -1), escapeLineSeparators(JSON.stringify(tail)).slice(1)] });
  }

  /**
   * This object's JSON with more fields at its end, as a spread of `fields` after it would place
   * them. For fields this object does not have: the JSON would then hold a key twice. Fields
   * added to many answers alike may come encoded once (ofValue).
   */
  withFields(fields: Record<string, unknown> | PreEncoded<Record<string, unknown>>): PreEncoded<unknown> {
    const more = (fields instanceof PreEncoded ? fields.json : encodeJson(fields)).slice(1);
    if (more === '}') return this;
    const json = this.json;
    // Kept as parts: a tool's result joined with the fields each 2026-07-28 answer adds would be
    // copied whole on its way to the pipe, the largest garbage of that era's get_issue.
    return new PreEncoded<unknown>({ parts: json === '{}' ? ['{', more] : [json.slice(0, -1), ',', more] });
  }

  toJSON(): unknown {
    if (splices === null) return JSON.parse(this.json);
    splices.push(this);
    return `${SPLICE_MARK}${splices.length - 1}`;
  }
}

/**
 * Characters a chunk of bytes holds, about: no single copy of a 10 MB text is ever made, and a
 * line of a 10 MB text is 40 chunks to write, not 1,000.
 */
const CHUNK_CHARS = 256 * 1024;

/** A text's JSON string literal, made a piece at a time (PreEncoded.stringBuilder). */
export interface StringBuilder {
  add(piece: string): void;
  finish(): PreEncoded<string>;
}

/** A message's JSON in order: JSON text, and the bytes of fragments kept as UTF-8 bytes. */
export type JsonParts = (string | Buffer)[];

// What a PreEncoded leaves in the line until it is spliced in: a NUL and a random nonce, which
// no message can contain by accident, and the fragment's number.
const SPLICE_MARK = `\u0000${randomBytes(8).toString('hex')}#`;
const SPLICE_MARK_JSON = JSON.stringify(SPLICE_MARK).slice(0, -1);
let splices: PreEncoded<unknown>[] | null = null;

/** A message's compact JSON, each PreEncoded's JSON in its place, U+2028 and U+2029 escaped. */
export function encodeJson(message: unknown): string {
  const parts = encodeJsonParts(message);
  return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : parts.map(String).join('');
}

/**
 * encodeJson's JSON as parts, in order: the text between fragments, and each fragment, as its
 * own parts (a fragment kept as bytes stays those bytes), for a writer that sends bytes.
 */
export function encodeJsonParts(message: unknown): JsonParts {
  const fragments: PreEncoded<unknown>[] = [];
  splices = fragments;
  let json: string;
  try {
    json = JSON.stringify(message);
  } finally {
    splices = null;
  }
  json = escapeLineSeparators(json);
  return fragments.length > 0 ? splice(json, fragments) : [json];
}

/**
 * U+2028 and U+2029 as JSON escapes. They are legal raw inside JSON strings, where the escape
 * means the same, but some clients' line splitters (Python's str.splitlines) break lines on them.
 */
function escapeLineSeparators(json: string): string {
  // indexOf, not a regular expression: on text without characters above U+00FF it returns at once.
  if (json.indexOf('\u2028') === -1 && json.indexOf('\u2029') === -1) return json;
  return json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Puts each fragment where JSON.stringify left its mark, in order. Each piece is a part of its
 * own, not joined to its neighbours: a joined string is a rope to V8, and writing a rope copies
 * it whole first (a 2 KB sprint text, once more for each read: docs/performance.md). A slice of
 * the JSON points into it, and a writer of bytes (json-rpc.ts, encodeLineBytes) encodes each
 * part where it stands.
 */
function splice(json: string, fragments: readonly PreEncoded<unknown>[]): JsonParts {
  const parts: JsonParts = [];
  let from = 0;
  fragments.forEach((fragment, i) => {
    const mark = `${SPLICE_MARK_JSON}${i}"`;
    const at = json.indexOf(mark, from);
    // Only a JSON.stringify inside our own (a toJSON that encodes a PreEncoded) could lose a
    // mark; failing is better than a broken line, and the caller answers -32603 instead.
    if (at === -1) throw new Error('a PreEncoded fragment lost its place in the line');
    parts.push(json.slice(from, at));
    parts.push(...(fragment.utf8 ?? fragment.jsonParts ?? [fragment.json]));
    from = at + mark.length;
  });
  parts.push(json.slice(from));
  return parts;
}
