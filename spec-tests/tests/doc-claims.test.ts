// Sentences the docs say about the code, each held to the running code. Every test quotes the
// sentence it guards, so rewording it fails here and sends the writer to check the claim again,
// and runs what the sentence describes, so a change of behaviour fails here too. (Issue 35 found
// these four false: ping-only before initialize, a "static" jira://projects, "HTTP next", and the
// demo paragraph read as the tour.)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnStdioClient } from '../../lib/demo/stdio-client.js';

const SERVER = 'dist/mcp-tracker.mjs';
const overview = readFileSync('OVERVIEW.md', 'utf8');
const readme = readFileSync('README.md', 'utf8');
/** Markdown with its line breaks folded, so a sentence is found wherever the lines wrap. */
const flat = (markdown: string) => markdown.replace(/\s*\n\s*/g, ' ');

type Message = Record<string, any>;

/** Writes the lines to a fresh server on stdio, closes stdin, and returns every message it wrote. */
async function exchange(lines: object[]): Promise<Message[]> {
  const child = spawn(process.execPath, [SERVER, '--ephemeral'], { stdio: ['pipe', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => (stdout += text));
  child.stdin.end(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  await new Promise((resolve) => child.on('exit', resolve));
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

const byId = (messages: Message[], id: number) => messages.find((message) => message.id === id);
const ERA_2026 = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

test('OVERVIEW: before initialize only ping is served in the handshake era, and a 2026-07-28 request at any time', async () => {
  const claim =
    'Before `initialize`, a handshake-era client may send only `ping`; a request that carries the 2026-07-28 `_meta` is served at any time (a dual-era server serves both eras), so a `server/discover` sent first is answered.';
  assert.ok(flat(overview).includes(claim), 'OVERVIEW.md no longer says it: check the claim and this test');
  const answers = await exchange([
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ERA_2026 } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
    { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: ERA_2026 } },
  ]);
  assert.equal(byId(answers, 1)?.result?.supportedVersions, ['2026-07-28'], 'server/discover sent first is answered');
  assert.is(byId(answers, 2)?.error?.code, -32600, 'a handshake-era tools/list before initialize is refused');
  assert.equal(byId(answers, 3)?.result, {}, 'ping before initialize is answered');
  assert.ok(Array.isArray(byId(answers, 4)?.result?.tools), 'a 2026-07-28 tools/list before initialize is served');
});

test('OVERVIEW and the tour: jira://projects is computed when read, with live counts, never "static"', async () => {
  const tour = readFileSync('lib/demo/tour-chapters.ts', 'utf8');
  assert.ok(flat(overview).includes('(`jira://projects` carries live counts'), 'OVERVIEW.md no longer says it');
  assert.ok(tour.includes('computed at each read like every resource here, with live counts'), 'the tour no longer says it');
  for (const [name, text] of [
    ['OVERVIEW.md', overview],
    ['the tour', tour],
  ] as const) {
    const sentences = flat(text).split(/(?<=\.)\s/);
    const wrong = sentences.filter((sentence) => sentence.includes('jira://projects') && /\bstatic\b/i.test(sentence));
    assert.equal(wrong, [], `${name} calls jira://projects static`);
  }
  // One request at a time: requests in flight are served concurrently, in no promised order.
  const client = spawnStdioClient(process.execPath, [SERVER, '--ephemeral']);
  await client.initialize();
  const readProjects = async () => {
    const answer = (await client.request('resources/read', { uri: 'jira://projects' })) as Message;
    return String(answer.result?.contents?.[0]?.text ?? '');
  };
  const before = await readProjects();
  const created = (await client.request('tools/call', {
    name: 'create_issue',
    arguments: { project: 'PROJ', title: 'A new issue the counts must show', type: 'task' },
  })) as Message;
  const after = await readProjects();
  await client.close();
  assert.ok(created.result && created.result.isError !== true, JSON.stringify(created));
  assert.ok(before.length > 0, 'the first read has a text');
  assert.is.not(after, before, 'reading again after create_issue gives other counts');
});

test('protocol/transport.ts names every transport the engine has, and nothing it lacks', () => {
  const header = readFileSync('protocol/transport.ts', 'utf8').split('\n\n')[0]!;
  assert.not.match(header, /\bnext\b/, 'the header announces a transport still to come');
  const named = [...header.matchAll(/protocol\/[\w-]+\.ts/g)].map((match) => match[0]);
  for (const file of named) assert.ok(existsSync(file), `transport.ts names ${file}, which does not exist`);
  // A transport is a file that hands whole messages to the engine: it calls server.ts's connect.
  // HTTP's files (http-sessions.ts, ...) are one transport, named by protocol/http.ts.
  const transports = readdirSync('protocol')
    .filter((name) => name.endsWith('.ts') && name !== 'server.ts')
    .filter((name) => /\bconnect\(/.test(readFileSync(`protocol/${name}`, 'utf8')))
    .map((name) => `protocol/${name.replace(/^http-.*/, 'http.ts')}`);
  assert.ok(transports.length >= 2, `found the transports ${transports.join(', ')}`);
  for (const file of transports) assert.ok(named.includes(file), `transport.ts does not name the transport ${file}`);
});

test('README: the demo paragraph says what `npm run demo` does, message by message', async () => {
  const paragraph = flat(readme).split('`npm run demo` reads')[1]?.split('Resources are nouns')[0] ?? '';
  assert.ok(paragraph !== '', 'README.md no longer has the demo paragraph');
  // The paragraph's steps, in its order: read the resource, call the tool, the notification, read again.
  const steps = ['jira://sprint/current', 'update_issue', 'notifications/resources/updated'];
  for (const step of steps) assert.ok(paragraph.includes(`\`${step}\``), `the paragraph no longer names ${step}`);
  const trace = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [SERVER, 'demo', '--trace'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk));
    child.on('exit', () => resolve(text));
  });
  const sent = trace
    .split('\n')
    .filter((line) => /^\s*(client →|server ←) \{/.test(line))
    .map((line) => JSON.parse(line.slice(line.indexOf('{'))));
  const order = sent.map((message) =>
    message.method === 'resources/read'
      ? `read ${message.params.uri}`
      : message.method === 'tools/call'
        ? `call ${message.params.name}`
        : (message.method ?? 'answer'),
  );
  const reads = order.flatMap((step, index) => (step === 'read jira://sprint/current' ? [index] : []));
  const call = order.indexOf('call update_issue');
  const updated = order.indexOf('notifications/resources/updated');
  assert.ok(reads.length === 2, `the demo reads jira://sprint/current twice: ${order.join(', ')}`);
  assert.ok(reads[0]! < call && call < updated && updated < reads[1]!, `in the paragraph's order: ${order.join(', ')}`);
  // The tour is another program: the paragraph must not describe its steps.
  assert.not.ok(paragraph.includes('add_comment'), 'the demo paragraph describes the tour');
});

test.run();
