// Interoperability with the official TypeScript SDK v2 client in its dual-era `auto` mode: it
// probes with server/discover and, on stdio, takes silence past its probe timeout for a legacy
// server and falls back to initialize
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio, backward
// compatibility). A transport of its own class (a subclass) makes it probe in place, on the
// connection it then keeps, as a host that spawns the server once does. Behind a wrapper that
// reads stdin late, the server sees the probe and the fallback initialize one after the other,
// and must serve both: the era is chosen per request, not once per process.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const PROBE_TIMEOUT_MS = 1000;
/** Well past the probe timeout, so the probe's answer comes after the fallback even on a busy machine. */
const LATE_READ_MS = 3000;
const SERVER_ARGS = ['dist/mcp-tracker.mjs', '--ephemeral'];

/** The client probes in place on a transport that is not exactly its own StdioClientTransport. */
class InPlaceProbeTransport extends StdioClientTransport {}

type TransportClass = typeof StdioClientTransport;

/** Auto mode; with `lateReadMs` the probe timeout is short and the server reads that much later. */
async function connectAuto(Transport: TransportClass, lateReadMs?: number): Promise<Client> {
  const late = lateReadMs !== undefined;
  const args = late
    ? ['spec-tests/test-support/late-stdin.mjs', String(lateReadMs), process.execPath, ...SERVER_ARGS]
    : SERVER_ARGS;
  // Without a delay the probe keeps the client's default timeout: a slow start must not turn it into a fallback.
  const versionNegotiation = late ? { mode: 'auto' as const, probe: { timeoutMs: PROBE_TIMEOUT_MS } } : { mode: 'auto' as const };
  const client = new Client({ name: 'sdk-v2-interop-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation });
  await client.connect(new Transport({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}

/** What a host does first: list the tools, call one, read a resource. */
async function useTheTracker(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  assert.ok(
    tools.some((tool) => tool.name === 'get_issue'),
    tools.map((tool) => tool.name).join(', '),
  );
  const issue = await client.callTool({ name: 'get_issue', arguments: { key: 'PROJ-101' } });
  assert.is(issue.isError, undefined, JSON.stringify(issue.content));
  assert.match(JSON.stringify(issue.structuredContent), /PROJ-101/);
  const sprint = await client.readResource({ uri: 'jira://sprint/current' });
  assert.is(sprint.contents[0]?.uri, 'jira://sprint/current');
}

test('auto mode, probing in place, on a server that reads at once: the 2026-07-28 era', async () => {
  const client = await connectAuto(InPlaceProbeTransport);
  try {
    assert.is(client.getProtocolEra(), 'modern');
    await useTheTracker(client);
  } finally {
    await client.close();
  }
});

test('auto mode, probing in place, on a server that reads late: the probe times out, and initialize is still served', async () => {
  const client = await connectAuto(InPlaceProbeTransport, LATE_READ_MS);
  try {
    assert.is(
      client.getProtocolEra(),
      'legacy',
      'the probe was answered before its timeout: this run did not reproduce the race',
    );
    await useTheTracker(client);
  } finally {
    await client.close();
  }
});

test('auto mode, probing on a sibling process, on a server that reads late: the fresh process gets initialize alone', async () => {
  const client = await connectAuto(StdioClientTransport, LATE_READ_MS);
  try {
    assert.is(client.getProtocolEra(), 'legacy');
    await useTheTracker(client);
  } finally {
    await client.close();
  }
});

test.run();
