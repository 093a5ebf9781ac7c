// An MCP server built on the official TypeScript SDK (McpServer + StdioServerTransport).
// It exists only as an independent implementation to point mcp-conform at: if the generic
// fixtures pass against a server we did not write, they test the spec, not our own server.
// Where the SDK departs from the spec, spec-tests/sdk-server/expected-failures.txt says why.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'mcp-conform-sdk-server', version: '1.0.0' });

server.registerTool(
  'echo',
  {
    description: 'Returns the text it was given.',
    inputSchema: { text: z.string() },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);

server.registerTool(
  'add',
  {
    description: 'Adds two numbers.',
    inputSchema: { a: z.number(), b: z.number() },
  },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);

server.registerResource(
  'readme',
  'memo://readme',
  { description: 'A short text resource.', mimeType: 'text/plain' },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Hello from the SDK server.' }] }),
);

server.registerPrompt(
  'greet',
  {
    description: 'Greets someone by name.',
    argsSchema: { name: z.string() },
  },
  ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }] }),
);

await server.connect(new StdioServerTransport());
