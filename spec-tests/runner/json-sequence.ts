// Splits a section body into the JSON values it holds. Values may be compact or pretty-printed
// and follow each other with any whitespace, as in go-sdk's txtar transcripts; `#` lines between
// values are comments. JSON.parse alone cannot do this: it accepts exactly one value.
import type { JsonValue } from './json-types.js';

export interface LocatedValue {
  value: JsonValue;
  line: number;
}

export class FixtureSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseJsonSequence(body: string, firstLine: number): LocatedValue[] {
  const values: LocatedValue[] = [];
  let position = 0;
  while (true) {
    position = skipBlanksAndComments(body, position);
    if (position >= body.length) return values;
    const line = firstLine + countNewlines(body, position);
    const end = findValueEnd(body, position, line);
    const text = body.slice(position, end);
    values.push({ value: parseOne(text, line), line });
    position = end;
  }
}

function parseOne(text: string, line: number): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new FixtureSyntaxError(`invalid JSON value: ${(error as Error).message}`, line);
  }
}

function skipBlanksAndComments(body: string, start: number): number {
  let position = start;
  while (position < body.length) {
    const char = body[position];
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') {
      position += 1;
    } else if (char === '#' && isLineStart(body, position)) {
      const newline = body.indexOf('\n', position);
      position = newline === -1 ? body.length : newline + 1;
    } else {
      return position;
    }
  }
  return position;
}

function isLineStart(body: string, position: number): boolean {
  const lineStart = body.lastIndexOf('\n', position - 1) + 1;
  return body.slice(lineStart, position).trim() === '';
}

/** Index just past the value starting at `start`: brackets are balanced, strings skipped. */
function findValueEnd(body: string, start: number, line: number): number {
  const first = body[start];
  if (first !== '{' && first !== '[' && first !== '"') return findScalarEnd(body, start);
  let depth = 0;
  let position = start;
  while (position < body.length) {
    const char = body[position];
    if (char === '"') {
      position = findStringEnd(body, position, line);
      if (depth === 0) return position;
      continue;
    }
    if (char === '{' || char === '[') depth += 1;
    if (char === '}' || char === ']') depth -= 1;
    position += 1;
    if (depth === 0) return position;
  }
  throw new FixtureSyntaxError('unterminated JSON value', line);
}

function findStringEnd(body: string, openingQuote: number, line: number): number {
  let position = openingQuote + 1;
  while (position < body.length) {
    const char = body[position];
    if (char === '\\') position += 2;
    else if (char === '"') return position + 1;
    else position += 1;
  }
  throw new FixtureSyntaxError('unterminated JSON string', line);
}

function findScalarEnd(body: string, start: number): number {
  let position = start;
  while (position < body.length && !/[\s{}[\]"]/.test(body[position] ?? '')) position += 1;
  return position;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let index = 0; index < end; index += 1) if (text[index] === '\n') count += 1;
  return count;
}
