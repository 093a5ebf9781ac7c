// No silent pass: a run that tests nothing is an error (exit 2) that says why. A server that
// refuses every probe (here: one that accepts only `Host: localhost`, reached as 127.0.0.1)
// offers no revision, and the error shows what each probe saw; a run in which every fixture is
// not applicable exits 2 with the reasons; and a probe that got no answer is asked again before
// its revision is called not offered.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCommand } from '../runner/run-command.js';
import type { RunArguments } from '../runner/cli-args.js';
import { tinyServer } from '../test-support/tiny-servers.js';
import { runArguments } from '../test-support/run-arguments.js';

async function run(args: Partial<RunArguments>): Promise<{ code: number; warned: string }> {
  let warned = '';
  const code = await runCommand(runArguments(args), {
    write: () => {},
    warn: (text) => (warned += text),
    isTerminal: false,
    env: {},
  });
  return { code, warned };
}

/** An MCP endpoint that answers 403 unless the Host header is localhost:PORT; `initializeAnswers` counts initialize POSTs. */
async function startServer(answer: (body: string, host: string | undefined, count: number) => [number, string]) {
  let count = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      count += 1;
      const [status, text] = answer(body, req.headers.host, count);
      res.writeHead(status, { 'Content-Type': text.startsWith('{') ? 'application/json' : 'text/plain' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => server.close() };
}

test('a server that refuses every probe with 403 (it wants Host: localhost) is an error that says so', async () => {
  const fake = await startServer((_body, host) => (host?.startsWith('localhost') ? [200, '{}'] : [403, 'Forbidden: bad Host']));
  try {
    let message = '';
    await run({ url: `http://127.0.0.1:${fake.port}/mcp` }).catch((error: Error) => (message = `${error.name} ${error.message}`));
    assert.match(message, 'the server offers no protocol revision the runner can test');
    assert.match(message, 'initialize 2025-11-25: HTTP 403 text/plain, no JSON-RPC answer');
    assert.match(message, 'Every probe was refused with 403 or 421');
  } finally {
    fake.close();
  }
});

test('a run in which no fixture applies exits 2 with the reasons', async () => {
  const { code, warned } = await run({ server: tinyServer('legacy-for-nothing'), filters: ['generic/stateless/'] });
  assert.is(code, 2);
  assert.match(warned, 'nothing was tested: none of the 6 fixtures applied to this server or ran; the reasons:');
  assert.match(warned, 'the server does not offer 2026-07-28: server/discover got error -32601');
});

const INITIALIZE_RESULT = (id: unknown, version: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 'slow', version: '1' } },
  });

test('a probe answered 503 is asked again, so its revision is offered', async () => {
  let refusedOnce = false;
  const fake = await startServer((body) => {
    const message = JSON.parse(body === '' ? '{}' : body) as {
      id?: unknown;
      method?: string;
      params?: { protocolVersion?: string };
    };
    if (message.method !== 'initialize') return [400, 'no'];
    if (message.params?.protocolVersion === '2025-06-18' && !refusedOnce) {
      refusedOnce = true;
      return [503, 'busy'];
    }
    return [200, INITIALIZE_RESULT(message.id, message.params?.protocolVersion ?? '')];
  });
  try {
    let text = '';
    await runCommand(runArguments({ url: `http://127.0.0.1:${fake.port}/mcp`, filters: ['generic/ping/ping-after'] }), {
      write: (chunk) => (text += chunk),
      isTerminal: false,
      env: {},
    });
    const report = JSON.parse(text) as { run: { detection: { offeredHandshake: string[] } } };
    assert.ok(refusedOnce);
    assert.equal(report.run.detection.offeredHandshake, ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);
  } finally {
    fake.close();
  }
});

test.run();
