// The bundled tracker over Streamable HTTP, used by the official SDK clients as hosts use them:
// the v1 client (handshake era, GET stream for subscriptions) and the v2 client in each of its
// modes (legacy, modern 2026-07-28, auto); and a clean exit on SIGTERM with streams open.
import type { ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { startHttpTracker } from '../test-support/http-tracker.js';

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', resolve)));

test('SDK v1 client: list, call, read, and a subscription update caused by another client, on the GET stream', async () => {
  const { child, url } = await startHttpTracker(['--ephemeral']);
  try {
    const watcher = new ClientV1({ name: 'watcher', version: '1' });
    await watcher.connect(new TransportV1(url));
    const updates: string[] = [];
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => void updates.push(note.params.uri));
    await watcher.subscribeResource({ uri: 'jira://issue/PROJ-101' });

    const editor = new ClientV1({ name: 'editor', version: '1' });
    await editor.connect(new TransportV1(url));
    assert.is((await editor.listTools()).tools.length > 5, true);
    const changed = await editor.callTool({ name: 'update_issue', arguments: { key: 'PROJ-101', status: 'in_review' } });
    assert.is(changed.isError, undefined, JSON.stringify(changed.content));
    const deadline = Date.now() + 5000;
    while (updates.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(updates, ['jira://issue/PROJ-101'], 'the watcher heard the editor’s change');
    const sprint = await watcher.readResource({ uri: 'jira://sprint/current' });
    assert.is(sprint.contents[0]?.uri, 'jira://sprint/current');
    await editor.close();
    await watcher.close();
  } finally {
    child.kill('SIGKILL');
  }
});

test('SDK v2 client in legacy, pinned 2026-07-28 and auto modes: each era works over HTTP', async () => {
  const { child, url } = await startHttpTracker(['--ephemeral']);
  try {
    for (const [mode, era] of [
      ['legacy', 'legacy'],
      [{ pin: '2026-07-28' }, 'modern'],
      ['auto', 'modern'],
    ] as const) {
      const client = new ClientV2({ name: 'v2', version: '1' }, { capabilities: {}, versionNegotiation: { mode } });
      await client.connect(new TransportV2(url));
      const label = JSON.stringify(mode);
      assert.is(client.getProtocolEra(), era, label);
      const issue = await client.callTool({ name: 'get_issue', arguments: { key: 'PROJ-102' } });
      assert.match(JSON.stringify(issue.structuredContent), /PROJ-102/, label);
      const prompts = await client.listPrompts();
      assert.ok(prompts.prompts.length > 0, label);
      await client.close();
    }
  } finally {
    child.kill('SIGKILL');
  }
});

test('SIGTERM with a session and its GET stream open: the server exits 0 within 2 s', async () => {
  const { child, url } = await startHttpTracker(['--ephemeral']);
  try {
    const client = new ClientV1({ name: 'stays', version: '1' });
    await client.connect(new TransportV1(url));
    await client.subscribeResource({ uri: 'jira://issue/PROJ-101' });
    const started = Date.now();
    child.kill('SIGTERM');
    assert.is(await exited(child), 0);
    assert.ok(Date.now() - started < 2000, `exited after ${Date.now() - started} ms`);
  } finally {
    child.kill('SIGKILL');
  }
});

test.run();
