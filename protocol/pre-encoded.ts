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

import { randomBytes } from 'node:crypto';

export class PreEncoded<Value> {
  /** The value this JSON stands for; only the type checker sees it. */
  declare private readonly value: Value;
  readonly json: string;

  /**
   * `lineSafe`: the parts of `json` were made line-safe already. Scanning a string joined from
   * parts (a rope, to V8) copies it whole into a new string first, so a PreEncoded joined from
   * line-safe parts is not scanned again (docs/performance.md).
   */
  private constructor(json: string, lineSafe = false) {
    // Made line-safe once, here, so that encodeJson never scans a big fragment again.
    this.json = lineSafe ? json : escapeLineSeparators(json);
  }

  /** A text, as its JSON string literal (quoted and escaped here). */
  static ofString(text: string): PreEncoded<string> {
    return new PreEncoded<string>(JSON.stringify(text));
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
    return new PreEncoded<string>(`${head.json.slice(0, -1)}${escapeLineSeparators(JSON.stringify(tail)).slice(1)}`, true);
  }

  /**
   * This object's JSON with more fields at its end, as a spread of `fields` after it would place
   * them. For fields this object does not have: the JSON would then hold a key twice.
   */
  withFields(fields: Record<string, unknown>): PreEncoded<unknown> {
    const more = encodeJson(fields).slice(1);
    if (more === '}') return this;
    return new PreEncoded<unknown>(this.json === '{}' ? `{${more}` : `${this.json.slice(0, -1)},${more}`, true);
  }

  toJSON(): unknown {
    if (splices === null) return JSON.parse(this.json);
    splices.push(this.json);
    return `${SPLICE_MARK}${splices.length - 1}`;
  }
}

// What a PreEncoded leaves in the line until it is spliced in: a NUL and a random nonce, which
// no message can contain by accident, and the fragment's number.
const SPLICE_MARK = `\u0000${randomBytes(8).toString('hex')}#`;
const SPLICE_MARK_JSON = JSON.stringify(SPLICE_MARK).slice(0, -1);
let splices: string[] | null = null;

/** A message's compact JSON, each PreEncoded's JSON in its place, U+2028 and U+2029 escaped. */
export function encodeJson(message: unknown): string {
  const fragments: string[] = [];
  splices = fragments;
  let json: string;
  try {
    json = JSON.stringify(message);
  } finally {
    splices = null;
  }
  json = escapeLineSeparators(json);
  return fragments.length > 0 ? splice(json, fragments) : json;
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

/** Puts each fragment where JSON.stringify left its mark, in order. */
function splice(json: string, fragments: readonly string[]): string {
  let line = '';
  let from = 0;
  fragments.forEach((fragment, i) => {
    const mark = `${SPLICE_MARK_JSON}${i}"`;
    const at = json.indexOf(mark, from);
    // Only a JSON.stringify inside our own (a toJSON that encodes a PreEncoded) could lose a
    // mark; failing is better than a broken line, and the caller answers -32603 instead.
    if (at === -1) throw new Error('a PreEncoded fragment lost its place in the line');
    line += json.slice(from, at) + fragment;
    from = at + mark.length;
  });
  return line + json.slice(from);
}
