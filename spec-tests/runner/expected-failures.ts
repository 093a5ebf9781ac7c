// Reads an expected-failures file: one fixture name per line with the reason it is known to
// fail (`generic/jsonrpc/j8-parse-error: the SDK drops unparseable lines`), `#` comments.
// An entry matches a fixture whose name equals it or ends with "/" + the entry.
import { readFileSync } from 'node:fs';

export interface ExpectedFailure {
  name: string;
  reason: string;
  line: number;
}

export function readExpectedFailures(path: string): ExpectedFailure[] {
  return parseExpectedFailures(readFileSync(path, 'utf8'), path);
}

export function parseExpectedFailures(text: string, source: string): ExpectedFailure[] {
  const entries: ExpectedFailure[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const reason = colon === -1 ? '' : line.slice(colon + 1).trim();
    if (reason === '') throw new Error(`${source}:${index + 1}: expected "fixture-name: reason"`);
    entries.push({ name: line.slice(0, colon).trim(), reason, line: index + 1 });
  });
  return entries;
}

export function entryFor(entries: ExpectedFailure[], fixtureName: string): ExpectedFailure | undefined {
  return entries.find((entry) => fixtureName === entry.name || fixtureName.endsWith(`/${entry.name}`));
}
