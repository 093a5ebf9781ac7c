// A fuzz finding as an mcp-conform fixture (spec-tests/FORMAT.md): the input as `client raw`
// lines, byte for byte, then a ping that must still be answered, and the answers the oracle
// says every line must get. Replay: npx tsx spec-tests/runner/main.ts run --server
// "node dist/mcp-tracker.mjs --ephemeral" spec-tests/fuzz/found

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeRaw } from '../runner/raw-escape.js';
import { type OracleOptions, emptyExpectation, expect } from './oracle.js';

export interface FixtureInput {
  readonly title: string;
  readonly details: readonly string[];
  readonly protocol: string;
  readonly bytes: Buffer;
  readonly oracle: OracleOptions;
}

export function fixtureText(input: FixtureInput): string {
  const out: string[] = [input.title, ...input.details.map((d) => `# ${d.replace(/\n/g, ' ')}`.slice(0, 2000))];
  out.push('covers: fuzz', `protocol: ${input.protocol}`, '', '-- client raw --');
  const lines = splitLines(input.bytes);
  for (const line of lines) out.push(escapeRaw(line));
  out.push(
    '-- client --',
    '{"jsonrpc":"2.0","id":"fuzz-alive","method":"ping"}',
    '-- server --',
    '{"jsonrpc":"2.0","id":"fuzz-alive","result":{}}',
  );
  const { must, may } = expectedAnswers(lines, input.oracle);
  out.push(...must);
  if (may.length > 0) out.push('-- server may --', ...may);
  return `${out.join('\n')}\n`;
}

export function writeFixture(directory: string, name: string, input: FixtureInput): string {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${name}.txtar`);
  writeFileSync(file, fixtureText(input));
  return file;
}

/** Whole lines, each keeping its "\n" (the last may lack one). */
function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** One expectation per answer the oracle requires; answers to cancelled requests are optional. */
function expectedAnswers(lines: readonly Buffer[], oracle: OracleOptions): { must: string[]; may: string[] } {
  const all = emptyExpectation();
  for (const line of lines) expect(line, oracle, all);
  const must: string[] = [];
  const may: string[] = [];
  for (const line of lines) {
    const one = expect(line, oracle);
    const answers: string[] = [];
    for (const [key, times] of one.byId) {
      for (let i = 0; i < times; i++) (all.cancellable.has(key) ? may : answers).push(`{"jsonrpc":"2.0","id":${key}}`);
    }
    for (let i = 0; i < one.nullErrors; i++) answers.push('{"jsonrpc":"2.0","id":null,"error":{"code":"<<integer>>"}}');
    if (one.arrays > 0) must.push(`[${answers.join(',')}]`);
    else must.push(...answers);
  }
  return { must, may };
}
