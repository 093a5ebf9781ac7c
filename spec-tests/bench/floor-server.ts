// The floor: the least a Node stdio JSON-RPC server can do. It frames lines without
// re-concatenating, parses each one, and writes a canned result with the request's id.
// No state, no routing beyond a table lookup, and no validation but what 2026-07-28 requires
// of every request (floor-rules.ts).
//
// So that the floor moves the same bytes as the real servers, its canned results are the
// tracker's own answers (canned-results.ts).
//
//   node dist/bench/floor.mjs --canned DIR

import { cannedResults } from './canned-results.js';
import { statelessRefusal } from './floor-rules.js';

const cannedIndex = process.argv.indexOf('--canned');
const cannedResult = cannedResults(cannedIndex === -1 ? undefined : process.argv[cannedIndex + 1]);

function answer(line: string): void {
  const message = JSON.parse(line) as { id?: unknown; method?: unknown; params?: unknown };
  if (message.id === undefined) return; // a notification
  const refusal = statelessRefusal(message.params);
  const body = refusal === undefined ? `"result":${cannedResult(message)}` : `"error":${refusal}`;
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${body}}\n`);
}

let parts: Buffer[] = [];
process.stdin.on('data', (chunk: Buffer) => {
  let start = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
    const piece = chunk.subarray(start, nl);
    answer(parts.length === 0 ? piece.toString('utf8') : Buffer.concat([...parts, piece]).toString('utf8'));
    parts = [];
    start = nl + 1;
  }
  if (start < chunk.length) parts.push(chunk.subarray(start));
});
process.stdin.on('end', () => process.exit(0));
