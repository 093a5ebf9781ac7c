// The benchmark's floor (spec-tests/bench/floor-server.ts) is a lower bound of a correct
// server, not a toy: on 2026-07-28 it checks what every request must carry in `_meta`, as ours
// does (floor-rules.ts), and is answered the spec's errors when that is missing or unsupported.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { bundle } from '../bench/build-servers.js';
import { type ServerProcess, startServer } from '../bench/client.js';
import { scratchDir } from '../test-support/tiny-servers.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

async function send(server: ServerProcess, message: Record<string, unknown>): Promise<Record<string, any>> {
  const id = server.nextId();
  const reply = await server.requestLine(id, `${JSON.stringify({ jsonrpc: '2.0', id, ...message })}\n`);
  return JSON.parse(reply.line) as Record<string, any>;
}

test('the floor serves a 2026-07-28 request with its _meta, and refuses one without it or of another version', async () => {
  const floor = await bundle(process.cwd(), 'spec-tests/bench/floor-server.ts', join(scratchDir, 'floor.mjs'));
  const server = startServer([process.execPath, floor]);
  try {
    const call = { method: 'tools/call', params: { name: 'get_issue', arguments: { key: 'PROJ-101' } } };
    const served = await send(server, {
      ...call,
      params: { ...call.params, _meta: { [VERSION]: '2026-07-28', [CAPABILITIES]: {} } },
    });
    assert.equal(served.result, {}, 'no canned answers given: the floor answers {}');

    const noCapabilities = await send(server, { ...call, params: { ...call.params, _meta: { [VERSION]: '2026-07-28' } } });
    assert.is(noCapabilities.error?.code, -32602, JSON.stringify(noCapabilities));
    const badVersion = await send(server, { ...call, params: { ...call.params, _meta: { [VERSION]: 7, [CAPABILITIES]: {} } } });
    assert.is(badVersion.error?.code, -32602, JSON.stringify(badVersion));

    const later = await send(server, {
      ...call,
      params: { ...call.params, _meta: { [VERSION]: '2099-01-01', [CAPABILITIES]: {} } },
    });
    assert.is(later.error?.code, -32022);
    assert.equal(later.error?.data, { supported: ['2026-07-28'], requested: '2099-01-01' });

    // No version in _meta: a handshake-era request, served as it always was.
    assert.equal((await send(server, { method: 'ping' })).result, {});
  } finally {
    await server.close();
  }
});

test.run();
