// `npm run bench -- --update-docs`: puts a run's tables in docs/benchmarks.md between two markers,
// so the page changes only when someone asks for it (a plain run writes to .bench-results/).

import { readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

export const BENCHMARKS_PAGE = 'docs/benchmarks.md';

export function updateBenchmarksPage(path: string, report: string): void {
  const text = readFileSync(path, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from === -1 || to < from) throw new Error(`${path} has no ${START} … ${END} markers around the benchmark table`);
  writeFileSync(path, `${text.slice(0, from + START.length)}\n\`\`\`\n${report.trimEnd()}\n\`\`\`\n${text.slice(to)}`);
}
