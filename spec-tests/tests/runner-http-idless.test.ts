// Over Streamable HTTP the answer in a POST's body answers that POST: an HTTP error whose body is
// a JSON-RPC error without an id (a refusal made before the body was read: an ended session's
// 404, an overload's 429 or 503) belongs to the one request the POST carried. The runner judges
// it as that request's answer (its own fence refused is no answer at all), not as a response to
// id null that nobody asked for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServerResponse } from 'node:http';
import { startFakeHttpServer } from '../test-support/fake-http-server.js';
import { fixtureFolder } from '../test-support/fixture-folder.js';
import { runCommand } from '../runner/run-command.js';
import { runArguments } from '../test-support/run-arguments.js';

interface Message {
  id?: unknown;
  method?: string;
}

const INITIALIZE_RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'fake', version: '1' },
};

const idless = (message: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });

/**
 * A handshake-era server that refuses the way ours may under load: a `tools/call` gets 503 with an
 * error without an id, and the runner's fence (the ping it sends to see a turn is over) is
 * answered only after the session's DELETE, with the 404 an ended session gets, without an id.
 */
async function startRefusingServer(): Promise<{ url: string; close: () => void }> {
  const held: ServerResponse[] = [];
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void =>
    void res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
  const answer = (method: string, message: Message, res: ServerResponse): void => {
    if (method === 'GET') return void res.writeHead(405).end();
    if (method === 'DELETE') {
      for (const fence of held.splice(0)) json(fence, 404, idless('Not Found: no such session'));
      // The DELETE is answered after the refusals, so the runner reads them before it stops.
      return void setTimeout(() => res.writeHead(200).end(), 100);
    }
    if (message.method === 'initialize')
      return json(res, 200, { jsonrpc: '2.0', id: message.id, result: INITIALIZE_RESULT }, { 'Mcp-Session-Id': 's-1' });
    if (message.method === 'server/discover') return void res.writeHead(400, { 'Content-Type': 'text/plain' }).end('no');
    if (message.method === 'ping' && String(message.id).startsWith('mcp-conform:fence')) return void held.push(res);
    if (message.method === 'ping') return json(res, 200, { jsonrpc: '2.0', id: message.id, result: {} });
    if (message.method === 'tools/call') return json(res, 503, idless('Service Unavailable: busy; retry later'));
    res.writeHead(202).end();
  };
  return startFakeHttpServer((req, body, res) => answer(req.method ?? '', body === '' ? {} : (JSON.parse(body) as Message), res));
}

interface JsonReport {
  fixtures: { verdict: string; failures: { summary: string }[] }[];
}

async function play(url: string, sections: string): Promise<JsonReport['fixtures'][number]> {
  const text = `A fixture of this test.\nprotocol: 2025-11-25\n\n${sections}`;
  const folder = fixtureFolder('runner-http-idless', 'f.txtar', text);
  let output = '';
  await runCommand(runArguments({ url, timeoutMs: 2000, jobs: 1, paths: [folder] }), {
    write: (chunk) => (output += chunk),
    isTerminal: false,
    env: {},
  });
  const [fixture] = (JSON.parse(output) as JsonReport).fixtures;
  if (fixture === undefined) throw new Error(`no fixture in the report: ${output}`);
  return fixture;
}

const PING = '-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n';
const CALL = '-- client --\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{}}}\n';

test("the runner's fence refused after its DELETE, without an id, is no response of the fixture's", async () => {
  const server = await startRefusingServer();
  try {
    const fixture = await play(server.url, PING);
    assert.is(fixture.verdict, 'passed', JSON.stringify(fixture.failures));
  } finally {
    server.close();
  }
});

test('a request refused with an error without an id is judged as its answer: where a result is owed, it fails', async () => {
  const server = await startRefusingServer();
  try {
    const fixture = await play(server.url, `${CALL}-- server --\n{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n`);
    assert.is(fixture.verdict, 'failed');
    assert.match(fixture.failures[0]?.summary ?? '', /^response to id 1 differs/);
  } finally {
    server.close();
  }
});

test('a request refused with an error without an id, where silence is owed, names the request it answered', async () => {
  const server = await startRefusingServer();
  try {
    const fixture = await play(server.url, `${CALL}-- silence 500ms --\n`);
    assert.is(fixture.verdict, 'failed');
    assert.is(fixture.failures[0]?.summary, 'expected no response within 500 ms, got response to id 1');
  } finally {
    server.close();
  }
});

test.run();
