// Builds the data of issue 30's adversarial run: issues of 1,000 comments of 10,000 characters
// (the API's maximum; one read of such an issue is about 10 MB), through the tracker's own
// add_comment tool over stdio, so the journal is what a client would have made.
//   node scripts/http-hardening/build-journal.mjs DATA_FILE [ISSUES=1] [DIST=dist]
// Prints the keys of the big issues.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [dataFile, issueCount = '1', dist = 'dist'] = process.argv.slice(2);
if (!dataFile) throw new Error('usage: build-journal.mjs DATA_FILE [ISSUES] [DIST]');
const child = spawn(process.execPath, [`${dist}/mcp-tracker.mjs`, '--data', dataFile], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
createInterface({ input: child.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  waiting.get(message.id)?.(message);
  waiting.delete(message.id);
});
let nextId = 1;
const call = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
const tool = async (name, args) => {
  const answer = await call('tools/call', { name, arguments: args });
  if (answer.error || answer.result.isError) throw new Error(`${name}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.result.structuredContent;
};
await call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'build-journal', version: '1' } });
child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
const keys = [];
for (let i = 0; i < Number(issueCount); i++) {
  const created = await tool('create_issue', { project: 'PROJ', title: `Big issue ${i}`, type: 'task' });
  const key = created.key ?? created.issue?.key;
  for (let batch = 0; batch < 1000; batch += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) => tool('add_comment', { key, body: `${batch + j} `.padEnd(10_000, 'x') })),
    );
  }
  keys.push(key);
}
console.log(keys.join(' '));
child.stdin.end();
