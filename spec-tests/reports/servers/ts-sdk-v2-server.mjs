// A tiny stdio server on the TypeScript SDK v2 (@modelcontextprotocol/server), for the reports in
// spec-tests/reports. run.sh copies it into the temporary folder where the SDK is installed; it is
// never run from the repository, which does not depend on the SDK.
// Usage: node ts-sdk-v2-server.mjs [--legacy reject] [--http PORT]
// serveStdio picks the era from the opening message: 2025-era `initialize` sessions by default,
// 2026-07-28 stateless requests always; `--legacy reject` makes it modern-only.
// --http PORT serves Streamable HTTP on 127.0.0.1:PORT/mcp instead, with the SDK's own entry
// (createMcpHandler: 2026-07-28, plus stateless 2025-era serving unless `--legacy reject`) wrapped
// for node:http by toNodeHandler from @modelcontextprotocol/node, as that package's README shows.
import { createServer as createHttpServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const reject = process.argv.includes('reject');
const httpAt = process.argv.indexOf('--http');

function createServer() {
  const server = new McpServer({ name: 'mcp-conform-report-ts-sdk-v2', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerResource('readme', 'report://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'A resource for the conformance report.' }],
  }));
  return server;
}

if (httpAt === -1) {
  serveStdio(createServer, { legacy: reject ? 'reject' : 'serve' });
} else {
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const handler = toNodeHandler(createMcpHandler(createServer, { legacy: reject ? 'reject' : 'stateless' }));
  createHttpServer(handler).listen(Number(process.argv[httpAt + 1]), '127.0.0.1');
}
