// First reading: skip this file. It is performance code, the last step of the reading path in docs/reading-path.md.
// The two backends side by side (backends.ts): npx tsx spec-tests/bench/backends-bench.ts POSTGRES_URL [sizes...]
// (default sizes: 1000 100000; the URL's user must be allowed to create databases). Prints the table on stdout.
import { backendsTable, measureBackends } from './backends.js';

const [url, ...rest] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: npx tsx spec-tests/bench/backends-bench.ts POSTGRES_URL [sizes...]');
const sizes = rest.map(Number).filter((n) => n > 0);
const rows = await measureBackends(url, sizes.length > 0 ? sizes : [1_000, 100_000], (line) => process.stderr.write(`${line}\n`));
process.stdout.write(backendsTable(rows));
