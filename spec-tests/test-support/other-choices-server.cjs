// A correct MCP stdio server that takes the other reasonable answer wherever the spec leaves the
// choice open: no id on errors for unreadable input (the 2025-11-25 schema's optional id),
// -32700 for an array (no revision after 2025-03-26 says how to reject one), -32600 for array
// params, -32602 for a missing resource, no pagination. mcp-conform must find no MUST failure.
// It speaks 2025-06-18 and 2025-11-25 only, and answers older requests with 2025-11-25.
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const reply = (id, result) => send({ jsonrpc: '2.0', id, result });
const fail = (id, code, message) => send({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } });
const VERSIONS = ['2025-06-18', '2025-11-25'];
const isId = (id) => typeof id === 'string' || Number.isInteger(id);

require('node:readline')
  .createInterface({ input: process.stdin })
  .on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return fail(undefined, -32700, 'Parse error');
    }
    if (Array.isArray(message)) return fail(undefined, -32700, 'Batches are not part of this revision');
    if (message === null || typeof message !== 'object' || typeof message.method !== 'string' || message.jsonrpc !== '2.0') {
      return fail(isId(message?.id) ? message.id : undefined, -32600, 'Invalid request');
    }
    if (!('id' in message)) return; // notifications are never answered
    if (!isId(message.id)) return fail(undefined, -32600, 'Invalid request id');
    if ('params' in message && (message.params === null || typeof message.params !== 'object' || Array.isArray(message.params))) {
      return fail(message.id, -32600, 'params must be an object');
    }
    answer(message.id, message.method, message.params ?? {});
  })
  .on('close', () => process.exit(0));

function answer(id, method, params) {
  if (method === 'initialize') {
    const version = VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : '2025-11-25';
    return reply(id, {
      protocolVersion: version,
      capabilities: { tools: {}, resources: {} },
      serverInfo: { name: 'other-choices', version: '1' },
    });
  }
  if (method === 'ping') return reply(id, {});
  if (method === 'tools/list')
    return reply(id, { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] });
  if (method === 'tools/call') {
    if (params.name !== 'echo') return fail(id, -32602, `Unknown tool: ${params.name}`);
    return reply(id, { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] });
  }
  if (method === 'resources/list') return reply(id, { resources: [] });
  if (method === 'resources/templates/list') return reply(id, { resourceTemplates: [] });
  if (method === 'resources/read') return fail(id, -32602, `Resource not found: ${params.uri}`);
  fail(id, -32601, 'Method not found');
}
