// The HTTP floor: the least a node:http MCP endpoint can do. It reads a POST's body, parses
// it, and answers a canned result with the request's id as a JSON body (202 for a
// notification). No sessions, no header checks, no validation but the `_meta` every
// 2026-07-28 request must carry (floor-rules.ts). Its canned results are the
// tracker's own answers (canned-results.ts, as for the stdio floor), so it moves the same bytes.
//
//   node dist/bench/http-floor.mjs --canned DIR --port PORT

import { createServer } from 'node:http';
import { cannedResults } from './canned-results.js';
import { statelessRefusal } from './floor-rules.js';

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const cannedResult = cannedResults(option('--canned'));

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: unknown; params?: unknown };
    if (message.id === undefined) return void res.writeHead(202).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    const refusal = statelessRefusal(message.params);
    const body = refusal === undefined ? `"result":${cannedResult(message)}` : `"error":${refusal}`;
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${body}}`);
  });
});
server.listen(Number(option('--port')), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
