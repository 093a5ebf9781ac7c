// The tokenizer of the query language: text in, a list of tokens out, each with the column
// (1-based, in characters) where it starts, so every later error can point at its place.
//
// Five kinds of token:
//   word    a run of letters, digits and _ . - : + * ? [ ] (field names, keywords, bare values
//           such as PROJ-S42, in_progress, dmitri.k, 2025-06-01, -7d, refund*, Jira's
//           cf[10016]); keywords are words too, and only the parser decides that `and` is AND
//   string  "..." or '...', with \" \' and \\ as the only escapes; never a keyword
//   op      = != ~ !~ < <= > >=
//   punct   ( ) ,
//   end     after the last token, at the column just past the text
import { jqlError } from './errors.js';

export type TokenKind = 'word' | 'string' | 'op' | 'punct' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The word, the operator or punctuation as written, or a string's value without quotes. */
  readonly text: string;
  readonly column: number;
}

const WORD_CHAR = /[A-Za-z0-9_.\-:+*?[\]]/;
const OPERATORS = ['!=', '!~', '<=', '>=', '=', '~', '<', '>'] as const;

export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < query.length) {
    const char = query[at] as string;
    if (/\s/.test(char)) {
      at += 1;
    } else if (char === '"' || char === "'") {
      at = readString(query, at, tokens);
    } else if (char === '(' || char === ')' || char === ',') {
      tokens.push({ kind: 'punct', text: char, column: at + 1 });
      at += 1;
    } else if (WORD_CHAR.test(char)) {
      const start = at;
      while (at < query.length && WORD_CHAR.test(query[at] as string)) at += 1;
      tokens.push({ kind: 'word', text: query.slice(start, at), column: start + 1 });
    } else {
      const op = OPERATORS.find((candidate) => query.startsWith(candidate, at));
      if (op === undefined) throw jqlError(`Unexpected character '${char}'`, at + 1);
      tokens.push({ kind: 'op', text: op, column: at + 1 });
      at += op.length;
    }
  }
  tokens.push({ kind: 'end', text: '', column: query.length + 1 });
  return tokens;
}

/** Reads the string that opens at `start`; returns where the text after it begins. */
function readString(query: string, start: number, tokens: Token[]): number {
  const quote = query[start];
  let value = '';
  let at = start + 1;
  while (at < query.length) {
    const char = query[at] as string;
    if (char === quote) {
      tokens.push({ kind: 'string', text: value, column: start + 1 });
      return at + 1;
    }
    if (char === '\\') {
      const next = query[at + 1];
      if (next !== '"' && next !== "'" && next !== '\\') {
        throw jqlError(`Unknown escape '\\${next ?? ''}' in a string (use \\", \\' or \\\\)`, at + 1);
      }
      value += next;
      at += 2;
    } else {
      value += char;
      at += 1;
    }
  }
  throw jqlError(`The string that starts here is not closed: add ${quote}`, start + 1);
}

/** Whether `text` can be written as a bare word, without quotes (the printer asks). */
export function isBareWord(text: string): boolean {
  if (text.length === 0) return false;
  for (const char of text) if (!WORD_CHAR.test(char)) return false;
  return true;
}
