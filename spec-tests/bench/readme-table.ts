// `npm run bench -- --update-readme`: puts a run's tables in README.md between two markers, so
// the README changes only when someone asks for it (a plain run writes to .bench-results/).

import { readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

export function updateReadme(path: string, report: string): void {
  const text = readFileSync(path, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from === -1 || to < from) throw new Error(`README.md has no ${START} … ${END} markers around the benchmark table`);
  writeFileSync(path, `${text.slice(0, from + START.length)}\n\`\`\`\n${report.trimEnd()}\n\`\`\`\n${text.slice(to)}`);
}
