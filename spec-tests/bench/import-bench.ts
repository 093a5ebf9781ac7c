// First reading: skip this file. The import's measured run:
//   npx tsx spec-tests/bench/import-bench.ts [rows] [badEvery]   (default: 1000 rows, every 100th refused)
//
// Writes a Jira-format CSV (jira-csv-sample.ts) into a temporary folder, imports it into a new
// journal file (each row one durable append: write + fdatasync), and prints the import's
// report and time, the journal's size, and the time of a JSON and a CSV export of the result.
// A command-line tool, not the server, so it prints to stdout. The folder is removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { importJiraCsv } from '../../lib/store/exchange/import-csv.js';
import { formatReport } from '../../lib/store/exchange/import-report.js';
import { writeJiraCsv } from '../../lib/store/exchange/jira-csv.js';
import { jiraSampleCsv } from '../../lib/store/exchange/jira-csv-sample.js';
import { silentLogger } from '../../lib/store/model/log.js';
import { openStore } from '../../lib/store/store.js';

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1000);
  const badEvery = Number(process.argv[3] ?? 100);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  try {
    const csvFile = path.join(directory, 'jira.csv');
    fs.writeFileSync(csvFile, jiraSampleCsv({ rows, badEvery }));
    const journal = path.join(directory, 'tracker.jsonl');
    const store = await openStore({ path: journal, log: silentLogger, seed: false, watch: false });
    const started = performance.now();
    const report = await importJiraCsv(store, fs.readFileSync(csvFile, 'utf8'), { dryRun: false, now: () => new Date() });
    const seconds = (performance.now() - started) / 1000;
    const lines = formatReport(
      report,
      `${rows}-row Jira CSV (${fs.statSync(csvFile).size} bytes)`,
      'a new journal',
      seconds,
    ).split('\n');
    const refusals = lines.filter((line) => line.startsWith('refused:'));
    process.stdout.write(`${lines.filter((line) => !line.startsWith('refused:')).join('\n')}\n`);
    process.stdout.write(
      `${refusals.slice(0, 3).join('\n')}\n${refusals.length > 3 ? `... ${refusals.length - 3} more refusals\n` : ''}`,
    );
    process.stdout.write(`journal: ${fs.statSync(journal).size} bytes\n`);
    let at = performance.now();
    const json = JSON.stringify(store.exportSnapshot());
    process.stdout.write(`JSON export: ${json.length} characters in ${(performance.now() - at).toFixed(1)} ms\n`);
    at = performance.now();
    const csv = writeJiraCsv(store.exportSnapshot());
    process.stdout.write(`CSV export: ${csv.length} characters in ${(performance.now() - at).toFixed(1)} ms\n`);
    store.close();
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

void main();
