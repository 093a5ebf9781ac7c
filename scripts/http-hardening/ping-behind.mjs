// Issue 30's stdio ping probe: how long a `ping` waits behind costly requests already queued.
//   node scripts/http-hardening/ping-behind.mjs reads|subscribes DATA_FILE KEY... [--count 200] [--dist dist]
//     [--node-args "--cpu-prof --cpu-prof-dir=DIR"]   (node's own flags for the server, to profile it)
// Writes `--count` requests at once (resources/read or resources/subscribe of the issues named,
// in turn), then a ping every 100 ms until every request is answered, and prints the pings'
// p50 and max. It reads the server's output as fast as it comes, without parsing the large
// answers (only each line's first bytes, for its id), so the client is never the bottleneck.
import { spawn } from 'node:child_process';
import { takeOption } from './take-option.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const count = Number(option('--count', '200'));
const dist = option('--dist', 'dist');
const nodeArgs = option('--node-args', '')
  .split(' ')
  .filter((arg) => arg !== '');
const [scenario, dataFile, ...keys] = args;
if (!['reads', 'subscribes'].includes(scenario) || !dataFile || keys.length === 0)
  throw new Error('usage: ping-behind.mjs reads|subscribes DATA_FILE KEY... [--count N] [--dist DIR]');

const child = spawn(process.execPath, [...nodeArgs, `${dist}/mcp-tracker.mjs`, '--data', dataFile], {
  stdio: ['pipe', 'pipe', 'ignore'],
});
const sentAt = new Map();
const pingWaits = [];
let answered = 0;
let head = ''; // the start of the line being received, enough to read its id
let inLine = false;
const onLine = (start) => {
  const id = /"id":("?[\w-]+"?)/.exec(start)?.[1];
  if (id === undefined) return;
  if (id.startsWith('"ping')) pingWaits.push(performance.now() - sentAt.get(id));
  else if (id === '1') initialized();
  else answered += 1;
};
child.stdout.on('data', (chunk) => {
  let from = 0;
  for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
    if (!inLine || head.length < 80) head += chunk.toString('latin1', from, Math.min(nl, from + 80));
    onLine(head);
    head = '';
    inLine = false;
    from = nl + 1;
  }
  if (from < chunk.length) {
    if (head.length < 80) head += chunk.toString('latin1', from, Math.min(chunk.length, from + 80));
    inLine = true;
  }
});
child.stdin.on('error', () => {}); // the server is told to end when we are done
const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
send({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ping-behind', version: '1' } },
});
// The clock starts once the server has opened its data and answered initialize: opening a
// 61 MB journal is a start's cost, not a ping's wait.
let initialized;
await new Promise((resolve) => (initialized = resolve));
send({ method: 'notifications/initialized' });
const began = performance.now();
const method = scenario === 'reads' ? 'resources/read' : 'resources/subscribe';
for (let i = 0; i < count; i++) send({ id: i + 2, method, params: { uri: `jira://issue/${keys[i % keys.length]}` } });

let pings = 0;
while (answered < count) {
  const id = `"ping${pings++}"`;
  sentAt.set(id, performance.now());
  send({ id: JSON.parse(id), method: 'ping' });
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const seconds = ((performance.now() - began) / 1000).toFixed(1);
child.stdin.end();
await new Promise((resolve) => child.on('exit', resolve));
const sorted = [...pingWaits].sort((a, b) => a - b);
const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1);
console.log(
  `${scenario} x${count}: ${count} answered in ${seconds} s; ${sorted.length} pings answered: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`,
);
