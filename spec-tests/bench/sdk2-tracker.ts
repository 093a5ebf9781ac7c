// The tracker served by the official SDK v2 (@modelcontextprotocol/server), written the way
// its documentation shows for a server that speaks both eras: a factory that builds an
// McpServer, handed to serveStdio, which picks the era from how the client opens (an
// `initialize` pins a 2025 session; a request carrying its version in `_meta` is served as
// 2026-07-28). With --http PORT, the same factory is served over Streamable HTTP by
// createMcpHandler through @modelcontextprotocol/node's toNodeHandler, on node:http.
//
// Same surface as the v1 peer (sdk-tracker.ts) and as ours: the same store on the same data
// file, tools and resources and prompts from sdk-tools.ts and sdk-surface.ts.
//
//   node dist/bench/sdk2-tracker.mjs --data PATH [--http PORT]

import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  ResourceTemplate,
  type StandardSchemaWithJSON,
  completable,
  createMcpHandler,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { type TrackerStore, openStore, stderrLogger } from '../../lib/store/index.js';
import { type SdkKit, registerPrompts, registerResources } from './sdk-surface.js';
import type { ToolDefinition } from '../../protocol/tools.js';
import { peerTools, registerTools } from './sdk-tools.js';

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const dataPath = option('--data');
if (!dataPath) {
  process.stderr.write('usage: sdk2-tracker --data PATH [--http PORT]\n');
  process.exit(2);
}

const store = await openStore({ path: dataPath, log: stderrLogger });

/** One McpServer with the tracker's surface: serveStdio builds one per connection, HTTP one per request. */
function trackerServer(data: TrackerStore, tools: readonly ToolDefinition[]): McpServer {
  const server = new McpServer(
    { name: 'mcp-tracker-sdk2', version: '0.1.0', title: 'Sprint Tracker (official SDK v2)' },
    { capabilities: { logging: {} } },
  );
  // v2 takes a tool's schemas as Standard Schemas with JSON Schema; its request comes as `ctx`.
  registerTools(
    {
      registerTool: (name, { inputSchema, outputSchema, ...config }, handler) =>
        void server.registerTool(
          name,
          {
            ...config,
            inputSchema: withJsonSchema(inputSchema),
            outputSchema: outputSchema === undefined ? undefined : withJsonSchema(outputSchema),
          },
          (args: unknown, ctx) =>
            handler(args, {
              signal: ctx.mcpReq.signal,
              progressToken: ctx.mcpReq._meta?.progressToken,
              notify: (notification) => ctx.mcpReq.notify(notification as Parameters<typeof ctx.mcpReq.notify>[0]),
              log: (level, data, logger) => void ctx.mcpReq.log(level, data, logger),
            }),
        ),
    },
    tools,
  );
  const kit: SdkKit = {
    server,
    ResourceTemplate,
    // v2 looks for the completer inside an optional argument's wrapper, so it goes on the inner string.
    completable: (schema, complete) =>
      schema instanceof z.ZodOptional
        ? completable(schema.unwrap() as z.ZodString, complete)
            .optional()
            .describe(schema.description ?? '')
        : (completable(schema, complete) as z.ZodTypeAny),
    promptArguments: (shape) => z.object(shape),
  };
  registerResources(kit, data);
  registerPrompts(kit, data);
  return server;
}

/**
 * A zod schema with the `~standard.jsonSchema` v2 converts tools' schemas with: classic zod's
 * schemas carry it, zod/mini's (ours) do not, so it comes from zod's own converter here.
 */
function withJsonSchema(schema: z.core.$ZodType): StandardSchemaWithJSON {
  const jsonSchema = (io: 'input' | 'output') => (options: { target?: string }) =>
    z.toJSONSchema(schema, { target: options.target as 'draft-2020-12', io }) as Record<string, unknown>;
  return { '~standard': { ...schema['~standard'], jsonSchema: { input: jsonSchema('input'), output: jsonSchema('output') } } };
}

const tools = peerTools(store);
const port = option('--http');
if (port === undefined) {
  serveStdio(() => trackerServer(store, tools));
  process.stdin.once('end', () => {
    store.close();
    process.exit(0);
  });
} else {
  const handler = createMcpHandler(() => trackerServer(store, tools), { responseMode: 'json' });
  const http = createServer(toNodeHandler(handler));
  http.listen(Number(port), '127.0.0.1', () => process.stderr.write(`listening on 127.0.0.1:${port}\n`));
  process.once('SIGTERM', () => {
    store.close();
    http.close();
    process.exit(0);
  });
}
