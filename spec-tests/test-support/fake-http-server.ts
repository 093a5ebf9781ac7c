// A small HTTP server on a free loopback port for the runner's tests: a fake MCP server whose
// every answer the test writes by hand, so that it can break any rule the runner checks.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts one; `handle` gets each request with its body read whole. */
export async function startFakeHttpServer(
  handle: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
