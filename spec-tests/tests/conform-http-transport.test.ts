// The Streamable HTTP transport's own rules (spec-tests/fixtures/http), each proved able to fail:
// a small server written here breaks every one of them (it answers a foreign Origin or Host with 200,
// a notification with 200 and a body, a request as text/plain, keeps serving a DELETEd session,
// ignores an unsupported MCP-Protocol-Version, issues a session id with a space, and in
// 2026-07-28 answers everything 200). Our own server passes them all (conform-over-http.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeHttpServer } from '../test-support/fake-http-server.js';
import { fixtureFolder } from '../test-support/fixture-folder.js';
import { runCommand } from '../runner/run-command.js';
import { runArguments } from '../test-support/run-arguments.js';
import type { RunArguments } from '../runner/cli-args.js';

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

interface Message {
  id?: unknown;
  method?: string;
  params?: { _meta?: Record<string, unknown> };
}

function answerBroken(req: IncomingMessage, message: Message | undefined, res: ServerResponse): void {
  const json = (body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
  if (req.method === 'GET') return void res.writeHead(405).end();
  if (req.method === 'DELETE') return void res.writeHead(200).end();
  if (message === undefined) return void res.writeHead(400).end();
  const result = (value: unknown) => json({ jsonrpc: '2.0', id: message.id, result: value });
  if (message.method === 'initialize')
    return void json(
      {
        jsonrpc: '2.0',
        id: message.id,
        result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'broken', version: '1' } },
      },
      { 'Mcp-Session-Id': 'session one' },
    );
  if (message.method === 'server/discover')
    return void result({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: {},
      ttlMs: 0,
      cacheScope: 'shared',
    });
  if (message.params?._meta?.[VERSION_KEY] !== undefined) return void result({ resultType: 'complete' });
  if (message.method === 'notifications/initialized') return void res.writeHead(202).end();
  if (message.method === 'ping') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('pong');
  json({ ok: true });
}

/**
 * The opening of a fake server that answers each request on an event stream: a POST only, a
 * notification accepted with 202, a request given a 200 event stream in session-1. Returns the
 * request and the result it gets (initialize's names the server `name`), or nothing when answered.
 */
function openEventStream(
  req: IncomingMessage,
  body: string,
  res: ServerResponse,
  name: string,
): { message: Message; result: object } | undefined {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const message = JSON.parse(body) as Message;
  if (message.id === undefined) return void res.writeHead(202).end();
  const result =
    message.method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name, version: '1' } }
      : {};
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Mcp-Session-Id': 'session-1' });
  return { message, result };
}

async function startBrokenServer(): Promise<{ url: string; close: () => void }> {
  return startFakeHttpServer((req, body, res) => {
    let message: Message | undefined;
    try {
      message = body === '' ? {} : (JSON.parse(body) as Message);
    } catch {
      message = undefined;
    }
    answerBroken(req, message, res);
  });
}

interface JsonReport {
  fixtures: { name: string; verdict: string; level: string; failures: { summary: string }[] }[];
}

async function runHttpFixtures(
  url: string,
  paths = ['spec-tests/fixtures/http'],
  failOn: RunArguments['failOn'] = ['must'],
): Promise<{ code: number; report: JsonReport }> {
  let output = '';
  const code = await runCommand(runArguments({ url, failOn, paths }), {
    write: (chunk) => (output += chunk),
    isTerminal: false,
    env: {},
  });
  return { code, report: JSON.parse(output) as JsonReport };
}

/** Fixture -> the words its failure must say. */
const BROKEN: Record<string, RegExp> = {
  'http/origin-forbidden-2025-11-25':
    /POST initialize \(id "mcp-conform:origin"\) with Origin: http:\/\/evil\.example: the server answered HTTP 200 application\/json/,
  'http/origin-forbidden-2026-07-28': /with .*Origin: http:\/\/evil\.example: the server answered HTTP 200/,
  'http/notification-accepted-202-2025-11-25':
    /POST notifications\/cancelled: the server answered HTTP 200 application\/json with the body \{"ok":true\}, expected status: 202, body: empty; or status: 4xx \| 5xx/,
  'http/request-content-type-2025-11-25': /answered HTTP 200 text\/plain with the body pong/,
  'http/session-terminated-404-2025-11-25': /POST ping \(id "mcp-conform:after-delete"\): the server answered HTTP 200/,
  'http/protocol-version-unsupported-400-2025-11-25': /with MCP-Protocol-Version: 1999-01-01: the server answered HTTP 200/,
  'http/session-id-visible-ascii-2025-11-25': /Mcp-Session-Id: "session one"/,
  'http/unsupported-version-400-2026-07-28': /answered HTTP 200/,
  'http/header-mismatch-400-2026-07-28':
    /with MCP-Protocol-Version: 2026-07-28, Mcp-Method: prompts\/list: the server answered HTTP 200/,
  'http/method-not-found-404-2026-07-28': /answered HTTP 200/,
};

/** Fixture -> the words its failure must say, for the checks the spec words as SHOULD (advisories). */
const BROKEN_SHOULD: Record<string, RegExp> = {
  'http/host-foreign-2025-11-25':
    /POST initialize \(id "mcp-conform:host"\) with Host: evil\.example: the server answered HTTP 200 application\/json/,
  'http/host-foreign-2026-07-28': /with .*Host: evil\.example: the server answered HTTP 200/,
};

test('every HTTP transport check fails a server that breaks its rule, and says what it answered', async () => {
  const fake = await startBrokenServer();
  try {
    const { code, report } = await runHttpFixtures(fake.url);
    assert.is(code, 1);
    for (const [name, words] of Object.entries(BROKEN)) {
      const fixture = report.fixtures.find((item) => item.name === name);
      assert.is(fixture?.verdict, 'failed', `${name}: ${fixture?.verdict}`);
      assert.is(fixture?.level, 'must', name);
      assert.match(fixture?.failures[0]?.summary ?? '', words);
    }
    for (const [name, words] of Object.entries(BROKEN_SHOULD)) {
      const fixture = report.fixtures.find((item) => item.name === name);
      assert.is(fixture?.verdict, 'advisory', `${name}: ${fixture?.verdict}`);
      assert.is(fixture?.level, 'should', name);
      assert.match(fixture?.failures[0]?.summary ?? '', words);
    }
    // What the spec leaves open passes: GET answered 405, an unreadable body refused with 400,
    // requests without the session id served (the server does not require one).
    for (const name of [
      'http/get-stream-or-405-2025-11-25',
      'http/unreadable-body-2025-11-25',
      'http/session-id-missing-400-2025-11-25',
    ])
      assert.is(report.fixtures.find((item) => item.name === name)?.verdict, 'passed', name);
  } finally {
    fake.close();
  }
});

/**
 * A server that refuses what it cannot take the plain HTTP way: a batch (outside 2025-03-26), a
 * notification or tools/list with 400 and no body; in 2025-03-26 it answers a batch's requests
 * as separate SSE events.
 */
async function startRefusingServer(): Promise<{ url: string; close: () => void }> {
  return startFakeHttpServer((req, body, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as Message | Message[];
    const version = req.headers['mcp-protocol-version'] ?? '2025-03-26';
    const json = (value: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    if (Array.isArray(message)) {
      if (version !== '2025-03-26') return void res.writeHead(400, { 'Content-Type': 'text/plain' }).end('no batches');
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      for (const item of message.filter((entry) => entry.id !== undefined))
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: item.id, result: {} })}\n\n`);
      return void res.end();
    }
    if (message.method === 'initialize') {
      const requested = (message.params as { protocolVersion?: string } | undefined)?.protocolVersion;
      const result = {
        protocolVersion: requested,
        capabilities: { tools: {} },
        serverInfo: { name: 'refusing', version: '1' },
      };
      return void json({ jsonrpc: '2.0', id: message.id, result });
    }
    if (message.method === 'notifications/initialized') return void res.writeHead(202).end();
    // A "request" whose id is null or fractional is no MCP request: taken as a notification.
    const validId = typeof message.id === 'string' || Number.isInteger(message.id);
    if (message.method === 'ping' && !validId) return void res.writeHead(202).end();
    if (message.method === 'ping') return void json({ jsonrpc: '2.0', id: message.id, result: {} });
    res.writeHead(400).end();
  });
}

test('JSON-RPC expectations over HTTP: a 400 without a body answers an expected error, fails an expected result and says so', async () => {
  const fake = await startRefusingServer();
  const folder = fixtureFolder(
    'conform-refusals',
    'tools-list.txtar',
    'tools/list gets a result.\nspec: https://example.invalid\nprotocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n',
  );
  try {
    const fixtures = [
      'spec-tests/fixtures/generic/batch/j14-mixed-batch-2025-11-25.txtar',
      'spec-tests/fixtures/generic/batch/j12-batch-of-one-invalid-2025-11-25.txtar',
      'spec-tests/fixtures/generic/batch/valid-batch-2025-03-26.txtar',
      'spec-tests/fixtures/generic/notifications/unknown-notification.txtar',
      'spec-tests/fixtures/generic/jsonrpc/j09-invalid-request-object.txtar',
      'spec-tests/fixtures/generic/jsonrpc/j07-unknown-method-string-id.txtar',
      'spec-tests/fixtures/generic/robustness/null-and-fractional-ids.txtar',
      folder,
    ];
    const { report } = await runHttpFixtures(fake.url, fixtures, ['must', 'should', 'jsonrpc-strict']);
    const verdicts = Object.fromEntries(report.fixtures.map((item) => [item.name, item.verdict]));
    assert.equal(verdicts, {
      'generic/batch/j12-batch-of-one-invalid-2025-11-25': 'passed',
      'generic/batch/j14-mixed-batch-2025-11-25': 'passed',
      'generic/batch/valid-batch-2025-03-26': 'passed',
      'generic/jsonrpc/j07-unknown-method-string-id': 'failed',
      'generic/jsonrpc/j09-invalid-request-object': 'passed',
      'generic/notifications/unknown-notification': 'passed',
      'generic/robustness/null-and-fractional-ids': 'failed',
      'tools-list': 'failed',
    });
    // A ping with a null or fractional id is no MCP request: a 202 for it breaks no transport
    // MUST; what it should have got is graded by the fixture, at its own level.
    const invalidIds = report.fixtures.find((item) => item.name === 'generic/robustness/null-and-fractional-ids');
    assert.is(invalidIds?.level, 'jsonrpc-strict');
    assert.not.match(invalidIds?.failures.map((f) => f.summary).join('\n') ?? '', /the request got no answer/);
    // A well-formed request's error belongs in a JSON or SSE body; a bare 400 for it fails, and says so.
    const unknownMethod = report.fixtures.find((item) => item.name === 'generic/jsonrpc/j07-unknown-method-string-id');
    assert.is(unknownMethod?.level, 'must');
    assert.match(
      unknownMethod?.failures[0]?.summary ?? '',
      /with HTTP 400 and no JSON-RPC body, where error -32601 is owed \(line \d+\): a request's answer belongs in a JSON or SSE body/,
    );
    const failure = report.fixtures.find((item) => item.name === 'tools-list')?.failures[0]?.summary;
    assert.is(
      failure,
      'the server answered POST tools/list (id 1) with HTTP 400 and no JSON-RPC body, where a result is owed (line 8)',
    );
  } finally {
    fake.close();
  }
});

/** Answers a ping on an event stream with an event id; a GET with Last-Event-ID resumes, replaying that answer if `replays`. */
async function startResumingServer(replays: boolean): Promise<{ url: string; close: () => void }> {
  return startFakeHttpServer((req, body, res) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method === 'GET') {
      if (req.headers['last-event-id'] === undefined) return void res.writeHead(405).end();
      res.writeHead(200, { 'Content-Type': 'text/event-stream' }).flushHeaders();
      if (replays) res.write(`id: ping-1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`);
      return;
    }
    const message = JSON.parse(body) as Message;
    if (message.method === 'initialize') {
      const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'resuming', version: '1' } };
      return void res
        .writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'session-1' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(`id: ping-${String(message.id)}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} })}\n\n`);
  });
}

test('a stream resumed with Last-Event-ID that replays an answer the client already had gets a should advisory', async () => {
  const fixture = ['spec-tests/fixtures/http/resume-after-last-event-2025-11-25.txtar'];
  const replaying = await startResumingServer(true);
  try {
    const { report } = await runHttpFixtures(replaying.url, fixture);
    const [result] = report.fixtures;
    assert.is(result?.verdict, 'advisory', JSON.stringify(result));
    assert.is(result?.level, 'should');
    assert.match(
      result?.failures[0]?.summary ?? '',
      /a response on the resumed stream: \{"jsonrpc":"2\.0","id":1,"result":\{\}\}/,
    );
  } finally {
    replaying.close();
  }
  const resuming = await startResumingServer(false);
  try {
    const { report } = await runHttpFixtures(resuming.url, fixture);
    assert.is(report.fixtures[0]?.verdict, 'passed', JSON.stringify(report.fixtures[0]));
  } finally {
    resuming.close();
  }
});

test('an SSE event id sent twice in one session fails, citing the resumability rule', async () => {
  const server = await startFakeHttpServer((req, body, res) => {
    const opened = openEventStream(req, body, res, 'same-ids');
    if (!opened) return;
    const { message, result } = opened;
    res.end(`id: event-1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
  });
  const folder = fixtureFolder(
    'conform-event-ids',
    'two-pings.txtar',
    'Two pings.\nspec: https://example.invalid\nprotocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n',
  );
  try {
    const { report } = await runHttpFixtures(server.url, [folder]);
    const [fixture] = report.fixtures;
    assert.is(fixture?.verdict, 'failed');
    assert.is(fixture?.failures[0]?.summary, 'the SSE event id "event-1" was sent twice in one session');
  } finally {
    server.close();
  }
});

test('requests whose ids differ only in type go out one after the other: a server keying answers by String(id) loses none', async () => {
  // As the Python SDK's streamable_http.py does (`request_id = str(message.id)`): the answer goes
  // to the stream last opened under the id's text, so with 7 and "7" in flight at once one is lost.
  const streams = new Map<string, ServerResponse>();
  const server = await startFakeHttpServer((req, body, res) => {
    const opened = openEventStream(req, body, res, 'string-keys');
    if (!opened) return;
    const { message, result } = opened;
    if (message.method !== 'ping') return void res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
    res.flushHeaders();
    streams.set(String(message.id), res);
    setTimeout(() => {
      const target = streams.get(String(message.id)) ?? res;
      target.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
      if (target !== res) setTimeout(() => res.end(), 500);
    }, 150);
  });
  const folder = fixtureFolder(
    'conform-type-twins',
    'twins.txtar',
    'Ids 7 and "7".\nspec: https://example.invalid\nprotocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n{"jsonrpc":"2.0","id":"7","method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":7,"result":{}}\n{"jsonrpc":"2.0","id":"7","result":{}}\n',
  );
  try {
    for (let run = 0; run < 3; run++) {
      const { report } = await runHttpFixtures(server.url, [folder]);
      assert.is(report.fixtures[0]?.verdict, 'passed', JSON.stringify(report.fixtures[0]?.failures));
    }
  } finally {
    server.close();
  }
});

test.run();
