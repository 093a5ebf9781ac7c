// Reads a server's stdout as the stdio transport defines it: one JSON-RPC message per line,
// UTF-8, nothing else (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports, rule 4 and M17). Every
// line that is not a message is reported as a purity violation instead of being skipped.
import type { JsonValue } from './json-types.js';
import { LineSplitter } from './line-splitter.js';

export const PURITY_RULE =
  'https://modelcontextprotocol.io/specification/2025-06-18/basic/transports: stdout carries only MCP messages, one per newline-terminated line (rule 4, M17)';

export type StdoutItem = { kind: 'message'; value: JsonValue } | { kind: 'impurity'; reason: string; text: string };

export class StdoutReader {
  private readonly splitter = new LineSplitter();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  push(chunk: Buffer): StdoutItem[] {
    return this.splitter.push(chunk).map((line) => this.readLine(line));
  }

  finish(): StdoutItem[] {
    const rest = this.splitter.finish();
    if (rest === undefined) return [];
    const item = this.readLine(rest);
    const unterminated: StdoutItem = {
      kind: 'impurity',
      reason: 'the last line has no terminating newline',
      text: preview(rest.toString('utf8')),
    };
    return [unterminated, item];
  }

  private readLine(line: Buffer): StdoutItem {
    let text: string;
    try {
      text = this.decoder.decode(line);
    } catch {
      return { kind: 'impurity', reason: 'a line is not valid UTF-8', text: preview(line.toString('utf8')) };
    }
    if (text.trim() === '') return { kind: 'impurity', reason: 'a blank line', text: JSON.stringify(text) };
    try {
      return { kind: 'message', value: JSON.parse(text) as JsonValue };
    } catch {
      return { kind: 'impurity', reason: 'a line that is not JSON', text: preview(text) };
    }
  }
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
