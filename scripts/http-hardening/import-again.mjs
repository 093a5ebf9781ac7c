// Issue 30 item 7: a Jira CSV import killed midway, then run again to its end, must leave
// exactly the file's issues (idempotent by key), and the second run must say the first did
// not finish.
//   node scripts/http-hardening/import-again.mjs DIR [--rows 3000] [--kill-after 2000] [--dist dist]
// Writes DIR/jira.csv, imports it into a new DIR/tracker.jsonl, SIGKILLs the import after
// --kill-after ms, counts the issues, imports it again, and counts them again.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { takeOption } from './take-option.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const rows = Number(option('--rows', '3000'));
const killAfter = Number(option('--kill-after', '2000'));
const dist = option('--dist', 'dist');
const [directory] = args;
if (!directory) throw new Error('usage: import-again.mjs DIR [--rows N] [--kill-after MS] [--dist DIR]');

fs.mkdirSync(directory, { recursive: true });
const csv = path.join(directory, 'jira.csv');
const data = path.join(directory, 'tracker.jsonl');
fs.rmSync(data, { force: true });
const lines = ['Issue key,Summary,Issue Type,Status,Priority,Reporter'];
for (let i = 1; i <= rows; i++) lines.push(`ABC-${i},Imported issue ${i},Task,To Do,Medium,alice`);
fs.writeFileSync(csv, `${lines.join('\n')}\n`);
const tracker = path.join(dist, 'mcp-tracker.mjs');

/** The data file's issues: how many, and how many titles appear more than once. */
const count = () => {
  const exported = JSON.parse(
    execFileSync(process.execPath, [tracker, 'export', '--format=json', '--data', data], { maxBuffer: 1 << 30 }),
  );
  const titles = exported.issues.map((issue) => issue.title);
  return { issues: titles.length, titlesTwice: titles.length - new Set(titles).size };
};

const first = spawn(process.execPath, [tracker, 'import', csv, '--data', data], { stdio: ['ignore', 'ignore', 'pipe'] });
setTimeout(() => first.kill('SIGKILL'), killAfter);
await new Promise((resolve) => first.on('exit', resolve));
console.log(`first run SIGKILLed after ${killAfter} ms: ${JSON.stringify(count())}`);
const again = spawn(process.execPath, [tracker, 'import', csv, '--data', data], { stdio: ['ignore', 'ignore', 'pipe'] });
let said = '';
again.stderr.on('data', (chunk) => (said += chunk));
const code = await new Promise((resolve) => again.on('exit', resolve));
console.log(`run again (exit ${code}): ${JSON.stringify(count())}, the file has ${rows} rows`);
console.log(`what the second run said first:\n${said.split('\n').slice(0, 4).join('\n')}`);
