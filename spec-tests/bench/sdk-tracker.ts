// The tracker served by the official SDK: McpServer + zod + StdioServerTransport, written the
// way the SDK's documentation shows. The benchmark's "what you would get otherwise".
//
// Same surface as dist/mcp-tracker.mjs: the same store (lib/store) on the same data file, the
// same URIs, tools, prompts and answers. Everything that is application rather than protocol
// is reused from lib/tracker (resource contents and metadata, prompt bodies, the tools with
// their zod 4 schemas and handlers: sdk-tools.ts), so that a difference in the numbers is a
// difference in the protocol layer.
//
//   node dist/bench/sdk-tracker.mjs --data PATH

import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { openStore, stderrLogger } from '../../lib/store/index.js';
import { type SdkKit, registerPrompts, registerResources } from './sdk-surface.js';
import { peerTools, registerTools } from './sdk-tools.js';

const dataIndex = process.argv.indexOf('--data');
const dataPath = dataIndex === -1 ? undefined : process.argv[dataIndex + 1];
if (!dataPath) {
  process.stderr.write('usage: sdk-tracker --data PATH\n');
  process.exit(2);
}

const store = await openStore({ path: dataPath, log: stderrLogger });
const server = new McpServer(
  { name: 'mcp-tracker-sdk', version: '0.1.0', title: 'Sprint Tracker (official SDK)' },
  { capabilities: { logging: {} } },
);
// v1 takes our zod 4 schemas as they are (it converts zod 3 and 4 alike); its request comes as `extra`.
registerTools(
  {
    registerTool: (name, config, handler) =>
      void server.registerTool(name, config, (args: unknown, extra) =>
        handler(args, {
          signal: extra.signal,
          progressToken: extra._meta?.progressToken,
          notify: (notification) => extra.sendNotification(notification as ServerNotification),
          log: (level, data, logger) => void server.sendLoggingMessage({ level, data, logger }, extra.sessionId),
        }),
      ),
  },
  peerTools(store),
);
const kit: SdkKit = { server, ResourceTemplate, completable, promptArguments: (shape) => shape };
registerResources(kit, store);
registerPrompts(kit, store);

const transport = new StdioServerTransport();
// The SDK does not notice stdin's end by itself (TS #2002): close on EOF so runs end cleanly.
process.stdin.once('end', () => {
  store.close();
  void server.close().then(() => process.exit(0));
});
await server.connect(transport);
