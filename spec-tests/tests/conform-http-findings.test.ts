// What `run --url` sends and how it judges what an HTTP server does with it, against a small
// server written here: the headers of each era, an HTTP error without a JSON-RPC body and a
// request answered 202 as findings of their own, a GET answered 405 as "no stream offered",
// SSE events read across chunk boundaries, and detection by the HTTP backward-compatibility rule.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixtureFolder } from '../test-support/fixture-folder.js';
import { runCommand } from '../runner/run-command.js';
import { runArguments } from '../test-support/run-arguments.js';
import { SseReader } from '../runner/sse-reader.js';

interface Seen {
  method: string;
  body: string;
  headers: IncomingHttpHeaders;
}

const INITIALIZE_RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'fake', version: '1' },
};

const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: 'shared',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake', version: '1' } },
};

/**
 * A handshake-era server (and a 2026-07-28 one when `modern`): tools/list fails with a bare 500,
 * ping is (wrongly) answered 202, GET is 405.
 */
function answer(modern: boolean, method: string, message: { id?: unknown; method?: string }, res: ServerResponse): void {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
  if (method === 'GET') return void res.writeHead(405).end();
  if (method === 'DELETE') return void res.writeHead(200).end();
  if (message.method === 'initialize')
    return void json(200, { jsonrpc: '2.0', id: message.id, result: INITIALIZE_RESULT }, { 'Mcp-Session-Id': 'session-1' });
  if (message.method === 'server/discover' && modern)
    return void json(200, { jsonrpc: '2.0', id: message.id, result: DISCOVER_RESULT });
  if (message.method === 'server/discover') return void res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad Request');
  if (message.method === 'tools/list') return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
  if (message.method === 'tools/call') {
    // Two SSE events, the second split mid-line across writes, lines ended by CRLF.
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(': hello\r\n\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message",');
    res.write('"params":{"level":"info","data":"x"}}\r\n\r\ndata: {"jsonrpc":"2.0","id":');
    return void res.end(`${JSON.stringify(message.id)},"result":{"content":[]}}\r\n\r\n`);
  }
  res.writeHead(202).end();
}

async function startFakeServer(modern = false): Promise<{ url: string; seen: Seen[]; close: () => void }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', body, headers: req.headers });
      answer(modern, req.method ?? '', body === '' ? {} : (JSON.parse(body) as { id?: unknown; method?: string }), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, close: () => server.close() };
}

interface JsonReport {
  fixtures: { name: string; verdict: string; failures: { summary: string; rule: string[] }[] }[];
  run: { detection: { offeredHandshake: string[]; offeredStateless: string[]; discoverProblem?: string } };
}

async function runFixture(url: string, name: string, text: string): Promise<JsonReport> {
  const folder = fixtureFolder('conform-http', `${name}.txtar`, text);
  let output = '';
  await runCommand(runArguments({ url, schema: true, timeoutMs: 1000, jobs: 1, paths: [folder] }), {
    write: (chunk) => (output += chunk),
    isTerminal: false,
    env: {},
  });
  return JSON.parse(output) as JsonReport;
}

const HEADER =
  'A fixture of this test.\nspec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports\ncovers: 4\n';

test('detection: a legacy server answers server/discover with an HTTP error, so 2026-07-28 is not offered', async () => {
  const fake = await startFakeServer();
  try {
    const report = await runFixture(
      fake.url,
      'ping',
      `${HEADER}protocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n`,
    );
    assert.equal(report.run.detection.offeredStateless, []);
    assert.match(report.run.detection.discoverProblem ?? '', /HTTP 400 text\/plain, no JSON-RPC answer/);
    assert.equal(report.run.detection.offeredHandshake, ['2025-11-25']);
    const discover = fake.seen.find((request) => request.body.includes('server/discover'));
    assert.is(discover?.headers['mcp-protocol-version'], '2026-07-28');
    assert.is(discover?.headers['mcp-method'], 'server/discover');
    assert.is(discover?.headers['mcp-session-id'], undefined);
  } finally {
    fake.close();
  }
});

test('a request answered with a bare HTTP 500, or with 202, is a finding that says so', async () => {
  const fake = await startFakeServer();
  try {
    const report = await runFixture(
      fake.url,
      'errors',
      `${HEADER}protocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n`,
    );
    const summaries = report.fixtures[0]?.failures.map((failure) => failure.summary) ?? [];
    assert.ok(
      summaries.some((summary) =>
        summary.includes(
          'the server answered POST tools/list (id 1) with HTTP 500 (text/plain) and no JSON-RPC body, where a result is owed',
        ),
      ),
      summaries.join('\n'),
    );
    const pinged = await runFixture(
      fake.url,
      'ping',
      `${HEADER}protocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n`,
    );
    const problems = pinged.fixtures[0]?.failures.map((failure) => failure.summary).join('\n') ?? '';
    assert.match(problems, 'POST ping (id 1) answered 202 with no body: the request got no answer');
  } finally {
    fake.close();
  }
});

test('handshake-era headers: the session id and version after initialize; a GET answered 405 is no stream, not a finding', async () => {
  const fake = await startFakeServer();
  try {
    const report = await runFixture(
      fake.url,
      'call',
      `${HEADER}protocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mcp-conform-probe","arguments":{}}}\n-- server --\n{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n`,
    );
    assert.is(report.fixtures[0]?.verdict, 'passed', JSON.stringify(report.fixtures[0]?.failures));
    const fixtureRequests = fake.seen.filter((request) => request.headers['mcp-session-id'] === 'session-1');
    const call = fixtureRequests.find((request) => request.body.includes('tools/call'));
    assert.is(call?.headers['mcp-protocol-version'], '2025-11-25');
    assert.match(String(call?.headers.accept), /application\/json.*text\/event-stream/);
    assert.ok(fixtureRequests.some((request) => request.method === 'GET'));
    assert.ok(fixtureRequests.some((request) => request.method === 'DELETE'));
    const initialize = fake.seen.find((request) => request.body.includes('"mcp-conform:initialize"'));
    assert.is(initialize?.headers['mcp-session-id'], undefined);
    assert.is(initialize?.headers['mcp-protocol-version'], undefined);
  } finally {
    fake.close();
  }
});

test('a 2026-07-28 request carries its body in headers, a name outside plain ASCII in Base64', async () => {
  const fake = await startFakeServer(true);
  try {
    await runFixture(
      fake.url,
      'modern',
      `${HEADER}protocol: none\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mcp-conform-é","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}\n-- server may --\n{"jsonrpc":"2.0","id":1,"result":"<<any>>"}\n`,
    );
    const call = fake.seen.find((request) => request.body.includes('mcp-conform-é'));
    assert.is(call?.headers['mcp-method'], 'tools/call');
    assert.is(call?.headers['mcp-name'], `=?base64?${Buffer.from('mcp-conform-é').toString('base64')}?=`);
    assert.is(call?.headers['mcp-protocol-version'], '2026-07-28');
    assert.is(call?.headers['mcp-session-id'], undefined);
  } finally {
    fake.close();
  }
});

test('SSE: events split across reads, CR, LF and CRLF line ends, comments; an event past the bound is refused', () => {
  const reader = new SseReader(100);
  const events = [
    ...reader.push(Buffer.from(': keep-alive\r')),
    ...reader.push(Buffer.from('\ndata: {"a":\r\ndata: 1}\r')),
    ...reader.push(Buffer.from('\n\revent: other\ndata: x\n\n')),
  ];
  assert.equal(events, [
    { type: 'message', data: '{"a":\n1}' },
    { type: 'other', data: 'x' },
  ]);
  assert.throws(() => new SseReader(10).push(Buffer.from(`data: ${'x'.repeat(20)}\n`)), /larger than 10 characters/);
});

test.run();
