// Team mode behind the load balancer of docs/team-mode.md: scripts/team-mode-nginx.conf itself (its ports
// changed to free ones), nginx in front of three `mcp-tracker --http --instance a|b|c` processes on
// one PostgreSQL database. Handshake-era clients open their sessions wherever the balancer sends
// their initialize, and every later request of a session (POST, GET stream, DELETE) must reach
// the instance that holds it, or the client gets 404 for its own session; 2026-07-28 requests go
// anywhere. Needs nginx: skipped with a line outside CI when it is missing, a failure in CI
// (.ci/run installs it).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { dropDatabases, freshStore, postgresTest } from './postgres-test-db.js';
import { type HttpTracker, startHttpTracker } from '../test-support/http-tracker.js';

const NAMES = ['a', 'b', 'c'] as const;
const CLIENTS = 6;

function nginxBinary(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const NGINX = nginxBinary();

function nginxTest(): typeof uvuTest {
  if (NGINX !== undefined) return postgresTest('the load-balancer test (nginx in front of three instances)');
  if (process.env.CI) {
    const failing = ((name: string) =>
      uvuTest(name, () => {
        throw new Error('CI is set but nginx is missing: .ci/run installs it (apt-get install nginx)');
      })) as unknown as typeof uvuTest;
    return Object.assign(failing, { after: uvuTest.after, run: uvuTest.run });
  }
  console.log('skip the load-balancer test: install nginx (Debian: apt-get install nginx)');
  const skipped = ((name: string, handler: Parameters<typeof uvuTest>[1]) =>
    uvuTest.skip(name, handler)) as unknown as typeof uvuTest;
  return Object.assign(skipped, { after: (() => {}) as unknown as typeof uvuTest.after, run: uvuTest.run });
}

const test = nginxTest();

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The repository's nginx configuration with its four ports replaced; fails if the file no longer has them. */
function configuration(balancerPort: number, instances: readonly HttpTracker[]): string {
  let text = readFileSync('scripts/team-mode-nginx.conf', 'utf8');
  const ports: Array<[string, number]> = [
    ['8080', balancerPort],
    ...instances.map((it, i): [string, number] => [`808${i + 1}`, Number(it.url.port)]),
  ];
  for (const [from, to] of ports) {
    const pattern = new RegExp(`127\\.0\\.0\\.1:${from}\\b`, 'g');
    assert.ok(pattern.test(text), `scripts/team-mode-nginx.conf names 127.0.0.1:${from}`);
    text = text.replace(pattern, `127.0.0.1:${to}`);
  }
  return text;
}

async function startNginx(folder: string, config: string, port: number): Promise<ChildProcess> {
  writeFileSync(join(folder, 'nginx.conf'), config);
  const child = spawn(NGINX!, ['-p', folder, '-e', 'stderr', '-c', join(folder, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const answered = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (answered) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stopNginx(child);
  throw new Error(`nginx did not listen on ${port}: ${stderr}`);
}

/** SIGTERM: nginx's master stops its workers, then exits (SIGKILL would orphan the workers, which hold our stderr pipe). */
async function stopNginx(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
  child.stderr?.destroy();
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };

/** A 2026-07-28 request: self-contained, its method and tool named in the headers as the transport page asks. */
async function statelessCall(url: URL, id: number, name: string, args: Record<string, unknown>): Promise<Result> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  });
  assert.is(response.status, 200, `${name} through the balancer`);
  const body = (await response.json()) as { result?: Result; error?: unknown };
  assert.ok(body.result, JSON.stringify(body.error));
  return body.result;
}

test.after(() => dropDatabases());

test('nginx in front of three instances: each handshake-era session stays on its instance, 2026-07-28 requests go anywhere', async () => {
  const store = await freshStore();
  const folder = mkdtempSync(join(tmpdir(), 'tracker-lb-'));
  const keyFile = join(folder, 'state-key');
  writeFileSync(keyFile, Buffer.alloc(32, 7));
  const instances: HttpTracker[] = [];
  const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];
  let nginx: ChildProcess | undefined;
  try {
    for (const name of NAMES)
      instances.push(await startHttpTracker(['--store', store, '--instance', name, '--state-key-file', keyFile]));
    const port = await freePort();
    nginx = await startNginx(folder, configuration(port, instances), port);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);

    // Handshake era: each client's initialize lands on some instance, which names itself in the session id.
    const heard = new Map<number, number>();
    for (let i = 0; i < CLIENTS; i++) {
      const transport = new StreamableHTTPClientTransport(url);
      const client = new Client({ name: `client-${i}`, version: '1' });
      await client.connect(transport);
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void heard.set(i, (heard.get(i) ?? 0) + 1));
      clients.push({ client, transport });
    }
    const homes = clients.map(({ transport }) => transport.sessionId?.split('.')[0]);
    assert.equal(new Set(homes).size, NAMES.length, `the balancer spread the sessions over every instance: ${homes.join(' ')}`);

    // Every later request of a session must reach its own instance: another one answers 404.
    for (const { client } of clients) {
      for (let k = 0; k < 5; k++) {
        const result = (await client.callTool({ name: 'get_issue', arguments: { key: 'PROJ-101' } })) as Result;
        assert.is(result.isError, undefined);
      }
      await client.subscribeResource({ uri: 'jira://issue/PROJ-102' });
    }
    // A change through one session reaches every subscriber on its GET stream, whichever instance holds it.
    await clients[0]!.client.callTool({ name: 'add_comment', arguments: { key: 'PROJ-102', body: 'through the balancer' } });
    const deadline = Date.now() + 10_000;
    while (heard.size < CLIENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is(heard.size, CLIENTS, 'every subscriber was told, on every instance');

    // 2026-07-28: no session; any instance answers, and keys are never given twice.
    const keys: string[] = [];
    for (let i = 0; i < 9; i++) {
      const result = await statelessCall(url, i, 'create_issue', { project: 'PROJ', title: `stateless ${i}` });
      keys.push((result.structuredContent?.['issue'] as { key: string }).key);
    }
    assert.is(new Set(keys).size, keys.length, 'no key given twice');

    // DELETE ends each session on its own instance (200, not 404).
    for (const { transport } of clients) await transport.terminateSession();
    for (const { transport } of clients) assert.is(transport.sessionId, undefined);
  } finally {
    await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));
    if (nginx) await stopNginx(nginx);
    for (const instance of instances) instance.child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
