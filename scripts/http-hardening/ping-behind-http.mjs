// Issue 30's HTTP ping probe: how long a `ping` waits while HTTP clients read large issues.
//   node scripts/http-hardening/ping-behind-http.mjs DATA_FILE KEY... [--clients 16] [--count 200] [--dist dist]
//     [--node-args "--cpu-prof --cpu-prof-dir=DIR"]   (node's own flags for the server, to profile it)
// Starts `mcp-tracker --http` on loopback. `--clients` readers (in a child process of their own,
// so that receiving their answers never delays the pinger's) each POST a 2026-07-28
// resources/read of the issues named, in turn, reading every answer to its end, until `--count`
// reads are answered in all. Meanwhile a handshake-era session (ping is a handshake-era method)
// sends a ping every 100 ms, each once the last is answered, and prints the pings' p50, p90 and max.
// Each reader has a peer address of its own (127.0.1.N), as separate hosts would: from one
// address they would share one peer's half of the output budget (protocol/http-budget.ts) and be
// refused with 429. The pinger is 127.0.0.2. A reader refused (429, 503) waits 50 ms and asks again.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { takeOption } from './take-option.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);

const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ping-behind-http', version: '1' } };
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

if (args[0] === '--readers') await readers(args.slice(1));
else await main();

async function main() {
  const clients = Number(option('--clients', '16'));
  const count = Number(option('--count', '200'));
  const dist = option('--dist', 'dist');
  const nodeArgs = option('--node-args', '')
    .split(' ')
    .filter((arg) => arg !== '');
  const [dataFile, ...keys] = args;
  if (!dataFile || keys.length === 0) throw new Error('usage: ping-behind-http.mjs DATA_FILE KEY... [--clients N] [--count N]');

  const server = spawn(process.execPath, [...nodeArgs, `${dist}/mcp-tracker.mjs`, '--data', dataFile, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise((resolve, reject) => {
    let text = '';
    server.stderr.on('data', (chunk) => {
      text += chunk;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${text}`)));
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.2' });
  const { headers } = await post(port, agent, {}, { id: 1, method: 'initialize', params: INITIALIZE });
  const session = { 'Mcp-Session-Id': headers['mcp-session-id'], 'MCP-Protocol-Version': '2025-11-25' };
  await post(port, agent, session, { method: 'notifications/initialized' });

  const reading = spawn(
    process.execPath,
    [import.meta.filename, '--readers', String(port), String(clients), String(count), ...keys],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const done = new Promise((resolve) => reading.on('exit', resolve));
  const began = performance.now();
  let finished = false;
  void done.then(() => (finished = true));
  const waits = [];
  for (let id = 2; !finished; id++) {
    const sent = performance.now();
    await post(port, agent, session, { id, method: 'ping' });
    waits.push(performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  server.kill('SIGTERM');
  agent.destroy();
  const sorted = [...waits].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1);
  console.log(
    `http reads, ${clients} clients x${count}: answered in ${seconds} s; ${sorted.length} pings answered: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`,
  );
}

/** One POST of one JSON-RPC message; resolves with the status and headers once the whole answer is read. */
function post(port, agent, headers, message) {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => resolve({ status: response.statusCode, headers: response.headers }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The readers' process: `clients` loops of 2026-07-28 reads, `count` reads in all. */
async function readers([port, clients, count, ...keys]) {
  let started = 0;
  const refused = {};
  const loop = async (client) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.1.${client + 1}` });
    while (started < Number(count)) {
      const uri = `jira://issue/${keys[started++ % keys.length]}`;
      const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'resources/read', 'Mcp-Name': uri };
      const message = { id: started, method: 'resources/read', params: { uri, _meta: META } };
      for (;;) {
        const status = await post(Number(port), agent, headers, message).then(
          (answer) => answer.status,
          (error) => error.code ?? error.message,
        );
        if (status === 200) break;
        refused[status] = (refused[status] ?? 0) + 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: Number(clients) }, (_, client) => loop(client)));
  if (Object.keys(refused).length > 0) console.error(`reads refused, then asked again: ${JSON.stringify(refused)}`);
}
