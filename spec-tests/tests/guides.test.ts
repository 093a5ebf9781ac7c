// The guides in docs/guides run as written: every code block they show is the example's own code
// (a block that no longer matches the file fails here), the fixture command of add-a-tool.md
// passes against the example server, and the socket transport of add-a-transport.md serves a
// client from the handshake to the end of its socket.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { notesServer } from '../../docs/guides/examples/notes.js';
import { serveSocket } from '../../docs/guides/examples/socket-transport.js';

const GUIDES = 'docs/guides';
const EXAMPLES = join(GUIDES, 'examples');

const filesIn = (dir: string, extension: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith(extension))
    .map((name) => readFileSync(join(dir, name), 'utf8'));

/** The fenced blocks of a page with their language (`ts`, `sh`, or '' for a fixture excerpt). */
function codeBlocks(page: string): { language: string; code: string }[] {
  return [...page.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ language: match[1]!, code: match[2]! }));
}

/** Blocks that claim to be the example's code, or its fixtures', and are not. */
export function staleBlocks(page: string, sources: string[], fixtures: string[]): string[] {
  return codeBlocks(page)
    .filter(({ language, code }) =>
      language === 'ts'
        ? !sources.some((text) => text.includes(code))
        : language === '' && !fixtures.some((text) => text.includes(code)),
    )
    .map(({ code }) => code.split('\n')[0]!);
}

test('every block a guide shows is the example code or fixture as it is', () => {
  const sources = filesIn(EXAMPLES, '.ts');
  const fixtures = filesIn(join(EXAMPLES, 'fixtures'), '.txtar');
  for (const name of readdirSync(GUIDES).filter((file) => file.endsWith('.md')))
    assert.equal(staleBlocks(readFileSync(join(GUIDES, name), 'utf8'), sources, fixtures), [], name);
});

test('the block check sees code that is not in the example', () => {
  const page = '```ts\nexport const addNote = 1;\n```\n```\n-- client --\n{"id":9}\n```\n```sh\nanything\n```\n';
  assert.equal(staleBlocks(page, ['export const addNote = 2;'], ['-- client --\n{"id":1}\n']), [
    'export const addNote = 1;',
    '-- client --',
  ]);
});

test("add-a-tool.md's fixture command passes against the example server", () => {
  const page = readFileSync(join(GUIDES, 'add-a-tool.md'), 'utf8');
  const command = codeBlocks(page)
    .find(({ code }) => code.startsWith('node dist/mcp-conform.mjs run'))
    ?.code.trim();
  assert.ok(command, 'add-a-tool.md shows the runner command');
  const output = execFileSync('sh', ['-c', `${command} --fail-on all`], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.match(output, /^2 passed, 0 failed$/m);
});

/** A client on a socket: lines out, parsed lines in. */
function socketClient(socket: Socket): { send(message: unknown): void; next(): Promise<Record<string, unknown>> } {
  const received: Record<string, unknown>[] = [];
  let waiting: (() => void) | undefined;
  let buffer = '';
  socket.setEncoding('utf8').on('data', (text: string) => {
    buffer += text;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      received.push(JSON.parse(buffer.slice(0, end)) as Record<string, unknown>);
      buffer = buffer.slice(end + 1);
    }
    waiting?.();
  });
  return {
    send: (message) => socket.write(`${JSON.stringify(message)}\n`),
    async next() {
      while (received.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
      return received.shift()!;
    },
  };
}

test('the socket transport serves a client from the handshake to the end of its socket', async () => {
  const listener = serveSocket(notesServer()).listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  const { port } = listener.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  const client = socketClient(socket);
  try {
    client.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'guide', version: '1' } },
    });
    assert.equal(((await client.next()).result as { serverInfo: unknown }).serverInfo, {
      name: 'notes-example',
      version: '1.0.0',
    });
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    client.send({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'notes://all' } });
    assert.equal(await client.next(), { jsonrpc: '2.0', id: 2, result: {} });
    client.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'add_note', arguments: { name: 'socket', text: 'over TCP' } },
    });
    assert.equal(await client.next(), {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://all' },
    });
    assert.equal(((await client.next()).result as { structuredContent: unknown }).structuredContent, {
      name: 'socket',
      uri: 'notes://note/socket',
      notes: 2,
    });
    // The end of the socket is the end of stdin: what was sent before it is still answered.
    client.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    socket.end();
    assert.equal(await client.next(), { jsonrpc: '2.0', id: 4, result: {} });
    await new Promise((resolve) => socket.once('close', resolve));
  } finally {
    socket.destroy();
    listener.close();
  }
});

test.run();
