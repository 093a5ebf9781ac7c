// mcp-conformance-server: the entry point of dist/mcp-conformance-server.mjs, the server the
// official conformance suite is run against (spec-tests/conformance/run.mjs). Not shipped in
// the package: it exists to be measured.
//
//   node dist/mcp-conformance-server.mjs        serve on stdio
//
// The first import sends console.* to stderr before any other module runs (stdio carries
// protocol messages only).
import '../../protocol/stdout-guard.js';

import { createServer } from '../../protocol/server.js';
import { serveStdio } from '../../protocol/stdio.js';
import { conformanceDefinition } from './definition.js';

const report = (line: string): void => {
  process.stderr.write(`[mcp-conformance-server] ${line}\n`);
};

const unknown = process.argv.slice(2);
if (unknown.length > 0) {
  report(`unknown arguments: ${unknown.join(' ')}\nusage: mcp-conformance-server (serves on stdio)`);
  process.exit(2);
}
serveStdio(createServer(conformanceDefinition, report), { report });
