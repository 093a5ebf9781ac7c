// How `run --url` reads a POST's event stream that ends before its response, against small
// servers written here: a stream closed after an event id is resumed with a GET carrying
// Last-Event-ID after the stream's `retry` time (2025-11-25 transports: "the server MAY close the
// connection (without terminating the SSE stream) ... The client SHOULD then "poll" the SSE
// stream by attempting to reconnect"); a stream that ends for good without the response is a
// should finding ("The SSE stream SHOULD eventually include a JSON-RPC response"), the missing
// response the fixture's own; when the client reused an id in flight, which of the two POSTs
// gets the answer is the server's choice, not a finding; and the stream of one of the runner's
// own requests (a fence) is no finding of the fixture.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixtureFolder } from '../test-support/fixture-folder.js';
import { runCommand } from '../runner/run-command.js';
import { runArguments } from '../test-support/run-arguments.js';

type PingStream = (id: unknown, res: ServerResponse, req: IncomingMessage) => void;

interface Fake {
  url: string;
  /** The Last-Event-ID of each GET that carried one, with the time it arrived. */
  resumptions: { lastEventId: string; at: number }[];
  /** When each ping's POST stream ended. */
  pingEnds: number[];
  close: () => void;
}

const INITIALIZE_RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  serverInfo: { name: 'fake', version: '1' },
};

/**
 * A handshake-era server whose ping answers come as `ping` says (`fence` for the runner's pings,
 * whose ids are strings; by default a JSON answer); `resumed` answers a GET with Last-Event-ID.
 */
async function startFakeServer(
  ping: PingStream,
  resumed?: (lastEventId: string, res: ServerResponse) => void,
  fence: PingStream = (id, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(pongJson(id)),
): Promise<Fake> {
  const fake = { resumptions: [] as Fake['resumptions'], pingEnds: [] as number[] };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const lastEventId = req.headers['last-event-id'];
      if (req.method === 'GET' && typeof lastEventId === 'string' && resumed) {
        fake.resumptions.push({ lastEventId, at: Date.now() });
        return resumed(lastEventId, res);
      }
      if (req.method !== 'POST') return void res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      const message = JSON.parse(body) as { id?: unknown; method?: string };
      if (message.method === 'initialize')
        return void res
          .writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'session-1' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: INITIALIZE_RESULT }));
      if (message.method === 'ping' && typeof message.id === 'number') {
        res.on('finish', () => fake.pingEnds.push(Date.now()));
        return ping(message.id, res, req);
      }
      if (message.method === 'ping') return fence(message.id, res, req);
      res.writeHead(message.method === 'server/discover' ? 400 : 202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { ...fake, url: `http://127.0.0.1:${port}/mcp`, close: () => server.close() };
}

interface JsonReport {
  fixtures: { verdict: string; level: string; failures: { summary: string; rule: string[]; level: string }[] }[];
}

async function runFixture(url: string, text: string): Promise<JsonReport> {
  const folder = fixtureFolder('conform-http-streams', 'fixture.txtar', text);
  let output = '';
  await runCommand(runArguments({ url, schema: true, jobs: 1, paths: [folder] }), {
    write: (chunk) => (output += chunk),
    isTerminal: false,
    env: {},
  });
  return JSON.parse(output) as JsonReport;
}

const PING_FIXTURE = `A fixture of this test.
spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping
protocol: 2025-11-25

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
`;

const sse = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream' });
const pongJson = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: {} });
const pong = (id: unknown) => `data: ${pongJson(id)}\n\n`;

test('a stream closed after an event id is resumed with Last-Event-ID once its retry time has passed', async () => {
  // The first resumption brings a new event id and closes again; the second brings the answer.
  const fake = await startFakeServer(
    (_id, res) => void sse(res).end('id: ping-0\nretry: 150\ndata:\n\n'),
    (lastEventId, res) => void sse(res).end(lastEventId === 'ping-0' ? 'id: ping-1\ndata:\n\n' : `id: ping-2\n${pong(1)}`),
  );
  try {
    const report = await runFixture(fake.url, PING_FIXTURE);
    assert.is(report.fixtures[0]?.verdict, 'passed', JSON.stringify(report.fixtures[0]?.failures));
    assert.equal(
      fake.resumptions.map((resumption) => resumption.lastEventId),
      ['ping-0', 'ping-1'],
    );
    const [closed] = fake.pingEnds;
    assert.ok(closed !== undefined && (fake.resumptions[0]?.at ?? 0) - closed >= 140, 'the retry field was not respected');
  } finally {
    fake.close();
  }
});

test('a stream that ends for good without the response: the fixture fails on the response, the stream is a should finding', async () => {
  const fake = await startFakeServer((_id, res) => void sse(res).end(': nothing to say\n\n'));
  try {
    const report = await runFixture(fake.url, PING_FIXTURE);
    const failures = report.fixtures[0]?.failures ?? [];
    const stream = failures.find((failure) => failure.summary.includes('the stream ended without the response'));
    assert.is(stream?.level, 'should', JSON.stringify(failures));
    assert.match(stream?.rule.join(' ') ?? '', 'The SSE stream SHOULD eventually include a JSON-RPC response');
    assert.ok(
      failures.some((failure) => failure.level === 'must' && failure !== stream),
      'the missing response is the fixture expectation, at its level',
    );
    assert.equal(fake.resumptions, []);
  } finally {
    fake.close();
  }
});

test('an id reused while in flight: answering only one of the two POSTs is the server choice, not a finding', async () => {
  let first: { id: unknown; res: ServerResponse } | undefined;
  const fake = await startFakeServer((id, res) => {
    if (first === undefined) {
      first = { id, res };
      return void sse(res).flushHeaders();
    }
    if (id === 1) {
      // The second POST with id 1 arrived while the first is open: it gets an empty stream, the first the answer.
      sse(res).end();
      return void first.res.end(pong(1));
    }
    sse(res).end(pong(id));
  });
  try {
    const report = await runFixture(
      fake.url,
      `A fixture of this test.
spec: https://modelcontextprotocol.io/specification/2025-11-25/basic: "The request ID MUST NOT have been previously used by the requestor within the same session."
level: should
protocol: 2025-11-25

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","id":1,"method":"ping"}
-- server may --
{"jsonrpc":"2.0","id":1}
{"jsonrpc":"2.0","id":1}
-- client --
{"jsonrpc":"2.0","id":2,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":2,"result":{}}
`,
    );
    assert.is(report.fixtures[0]?.verdict, 'passed', JSON.stringify(report.fixtures[0]?.failures));
  } finally {
    fake.close();
  }
});

test('a fence whose stream ends without its answer: no finding, the fixture judged on its own requests', async () => {
  const fake = await startFakeServer(
    (id, res) => void sse(res).end(pong(id)),
    undefined,
    (_id, res) => void sse(res).end(),
  );
  try {
    const report = await runFixture(fake.url, PING_FIXTURE);
    assert.is(report.fixtures[0]?.verdict, 'passed', JSON.stringify(report.fixtures[0]?.failures));
  } finally {
    fake.close();
  }
});

test.run();
