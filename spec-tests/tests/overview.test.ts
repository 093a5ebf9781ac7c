// OVERVIEW.md stays true: its tables of error codes and notifications name every code in
// ErrorCode and every notification the engine sends, and each file and function a row names
// exists and produces what the row says. A learner who follows a row finds the code.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ErrorCode } from '../../protocol/errors.js';
import { defines } from '../test-support/source-names.js';

interface Row {
  /** The first cell: a code (-32602) or a notification name. */
  key: string;
  cells: string[];
  /** The `file` `function` pairs of the last cell. */
  places: { file: string; functions: string[] }[];
}

/** The rows of the table under the heading `## {heading}`. */
function tableRows(markdown: string, heading: string): Row[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return [];
  const section = markdown.slice(start + 1).split(/\n## /)[0] ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => {
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    return { key: (cells[0] ?? '').replaceAll('`', ''), cells, places: placesIn(cells[cells.length - 1] ?? '') };
  });
}

/** "`protocol/session.ts` `#receive`, `#handleBatch`" → one place with two functions. */
function placesIn(cell: string): Row['places'] {
  const places: Row['places'] = [];
  for (const token of cell.matchAll(/`([^`]+)`/g)) {
    const text = token[1]!;
    if (/\.(ts|mjs)$/.test(text)) places.push({ file: text, functions: [] });
    else places.at(-1)?.functions.push(text);
  }
  return places;
}

/** How a file raises each code: by its name in ErrorCode, or through the helper that makes it. */
const RAISED_AS: Record<string, string[]> = {
  InvalidParams: ['invalidParams(', 'ErrorCode.InvalidParams'],
  InvalidRequest: ['invalidRequest(', 'ErrorCode.InvalidRequest'],
  MethodNotFound: ['methodNotFound(', 'ErrorCode.MethodNotFound'],
  ResourceNotFound: ['resourceNotFoundCode'],
};

/** Everything wrong with the overview's two tables, as readable lines. */
function problemsIn(markdown: string): string[] {
  const problems: string[] = [];
  const errors = tableRows(markdown, 'Every error code');
  const notifications = tableRows(markdown, 'Every notification');
  const checkPlaces = (row: Row, mustContain: string[]) => {
    if (row.places.length === 0) problems.push(`${row.key}: names no file`);
    for (const { file, functions } of row.places) {
      if (!existsSync(file)) {
        problems.push(`${row.key}: ${file} does not exist`);
        continue;
      }
      const source = readFileSync(file, 'utf8');
      if (functions.length === 0) problems.push(`${row.key}: ${file} without a function`);
      for (const name of functions) if (!defines(source, name)) problems.push(`${row.key}: ${file} defines no ${name}`);
      if (!mustContain.some((text) => source.includes(text)))
        problems.push(`${row.key}: ${file} never mentions ${mustContain[0]}`);
    }
  };
  for (const row of errors) {
    const name = row.cells[1] ?? '';
    const code = (ErrorCode as Record<string, number>)[name];
    if (code === undefined) problems.push(`${row.key}: ${name} is not in ErrorCode`);
    else if (String(code) !== row.key) problems.push(`${row.key}: ${name} is ${code}`);
    checkPlaces(row, [`ErrorCode.${name}`, ...(RAISED_AS[name] ?? [])]);
  }
  for (const [name, code] of Object.entries(ErrorCode)) {
    if (!errors.some((row) => row.key === String(code))) problems.push(`${code} (${name}) has no row`);
  }
  for (const row of notifications) checkPlaces(row, [`'${row.key}'`, row.key]);
  for (const name of sentNotifications()) {
    if (!notifications.some((row) => row.key === name)) problems.push(`${name} has no row`);
  }
  return problems;
}

/** Every `'notifications/...'` string literal in the engine's own sources. */
function sentNotifications(): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync('protocol')) {
    if (!entry.endsWith('.ts')) continue;
    const source = readFileSync(join('protocol', entry), 'utf8');
    for (const match of source.matchAll(/'(notifications\/[a-z_/]+)'/g)) names.add(match[1]!);
  }
  return names;
}

test('OVERVIEW.md: every error code and notification has a row, and every row points to the code that produces it', () => {
  assert.equal(problemsIn(readFileSync('OVERVIEW.md', 'utf8')), []);
});

test('the overview check fails on a missing file, a missing function, a wrong code and a missing row', () => {
  const broken = [
    '',
    '## Every error code',
    '',
    '| Code | Name | When | Produced by |',
    '|---|---|---|---|',
    '| -32700 | ParseError | bad JSON | `protocol/session.ts` `noSuchFunction` |',
    '| -32601 | InvalidParams | wrong | `protocol/nowhere.ts` `run` |',
    '',
    '## Every notification',
    '',
    '| Notification | Direction | What | By |',
    '|---|---|---|---|',
    '| `notifications/progress` | s → c | progress | `protocol/lifecycle.ts` `createHandshake` |',
  ].join('\n');
  const problems = problemsIn(broken).join('\n');
  assert.match(problems, 'defines no noSuchFunction');
  assert.match(problems, 'nowhere.ts does not exist');
  assert.match(problems, '-32601: InvalidParams is -32602');
  assert.match(problems, '-32603 (InternalError) has no row');
  assert.match(problems, 'lifecycle.ts never mentions');
  assert.match(problems, 'notifications/message has no row');
});

test.run();
