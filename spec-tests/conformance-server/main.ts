// mcp-conformance-server: the entry point of dist/mcp-conformance-server.mjs, the server the
// official conformance suite is run against (spec-tests/conformance/run.mjs). Not shipped in
// the package: it exists to be measured.
//
//   node dist/mcp-conformance-server.mjs                      serve on stdio
//   node dist/mcp-conformance-server.mjs --http [HOST:]PORT   serve at http://HOST:PORT/mcp (HOST: 127.0.0.1)
//
// The first import sends console.* to stderr before any other module runs (stdio carries
// protocol messages only).
import '../../protocol/stdout-guard.js';

import { serveHttp } from '../../protocol/http.js';
import { createServer } from '../../protocol/server.js';
import { serveStdio } from '../../protocol/stdio.js';
import { conformanceDefinition } from './definition.js';

const USAGE = 'usage: mcp-conformance-server [--http [HOST:]PORT]   (stdio without --http)';

const report = (line: string): void => {
  process.stderr.write(`[mcp-conformance-server] ${line}\n`);
};

/** `PORT`, `HOST:PORT` or `[IPv6]:PORT`; undefined for anything else. */
function parseAddress(text: string): { host: string; port: number } | undefined {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535) return undefined;
  return { host: match[1]?.replace(/^\[(.*)\]$/, '$1') ?? '127.0.0.1', port };
}

async function serveOverHttp(address: { host: string; port: number }): Promise<void> {
  const endpoint = await serveHttp(server, { ...address, report });
  report(`listening on ${endpoint.url}`);
  for (const name of ['SIGTERM', 'SIGINT'] as const)
    process.once(name, () => void endpoint.close(1500).finally(() => process.exit(0)));
}

const args = process.argv.slice(2);
const server = createServer(conformanceDefinition, report);
if (args.length === 0) {
  serveStdio(server, { report });
} else {
  const address = args.length === 2 && args[0] === '--http' ? parseAddress(args[1]!) : undefined;
  if (!address) {
    report(`unknown arguments: ${args.join(' ')}\n${USAGE}`);
    process.exit(2);
  }
  serveOverHttp(address).catch((error: Error) => {
    report(`cannot serve over HTTP: ${error.message}`);
    process.exit(1);
  });
}
