// The tracker's tools for the SDK peers: ours, as lib/tracker builds them (trackerTools, in the
// selection a plain start offers: toolsets.ts), registered with each SDK's McpServer.registerTool.
// Title, description, annotations, input and output schemas are the very objects ours serves
// (both SDKs take zod 4 schemas, and zod/mini is zod 4), and each call runs our handler and
// returns its result: the peers cannot drift from ours, and a difference in the numbers is a
// difference in the protocol layer. spec-tests/tests/bench-peers.test.ts runs the benchmark's
// correctness checks against both peers, so a peer that answers otherwise fails a test, not a
// benchmark run.
//
// The two SDKs register tools alike but hand a handler its request differently: each peer passes
// a ToolRegistrar that makes the difference (sdk-tracker.ts, sdk2-tracker.ts).

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Asked, SampledText, ToolContext } from '../../protocol/asking.js';
import type { RequestContext } from '../../protocol/context.js';
import type { ToolAnnotations, ToolDefinition } from '../../protocol/tools.js';
import type { TrackerStore } from '../../lib/store/index.js';
import { selectTools } from '../../lib/tracker/toolsets.js';
import { trackerTools } from '../../lib/tracker/tools.js';

/** What a handler needs of the SDK's request: its cancellation, its progress token, and the SDK's senders. */
export interface PeerRequest {
  signal: AbortSignal;
  progressToken: string | number | undefined;
  /** Sends a notification about this request. */
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
  /** Sends notifications/message if the client's log level lets it through. */
  log: RequestContext['log'];
}

export interface ToolConfig {
  title?: string;
  description: string;
  inputSchema: ToolDefinition['input'];
  outputSchema?: ToolDefinition['output'];
  annotations?: ToolAnnotations;
}

/** The part of either SDK's McpServer this file uses. Arguments arrive parsed by the SDK against inputSchema. */
export interface ToolRegistrar {
  registerTool(name: string, config: ToolConfig, handler: (args: any, request: PeerRequest) => Promise<CallToolResult>): void;
}

/** Our tools as a plain start offers them: made once per process, as ours makes them, and registered on every McpServer. */
export const peerTools = (store: TrackerStore): readonly ToolDefinition[] => selectTools(trackerTools(store), {});

export function registerTools(server: ToolRegistrar, tools: readonly ToolDefinition[]): void {
  for (const tool of tools) {
    const { name, title, description, input, output, annotations } = tool;
    server.registerTool(
      name,
      { title, description, inputSchema: input, outputSchema: output, annotations },
      async (args, request) => (await tool.run(args, peerContext(request))) as CallToolResult,
    );
  }
}

/**
 * The part of a ToolContext the tracker's tools read: the request's signal, progress and log
 * (bulk_update_status, the writes), and sampling (summarize_sprint with prose). The benchmark's
 * clients declare no capabilities (workload.ts), so sampling is answered as ours answers them:
 * unsupported, in the same words. A tool that reads more of its context than this would fail
 * its call, and the peers' test with it.
 */
function peerContext({ signal, progressToken, notify, log }: PeerRequest): ToolContext {
  // Only with a token (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress), as ours.
  const progress: RequestContext['progress'] = (done, total, message) => {
    if (progressToken !== undefined)
      void notify({ method: 'notifications/progress', params: { progressToken, progress: done, total, message } });
  };
  const sample = async (): Promise<Asked<SampledText>> => ({
    ok: false,
    why: 'unsupported',
    detail: 'the client did not declare the capability for sampling/createMessage',
  });
  const used: Pick<ToolContext, 'signal' | 'progress' | 'log' | 'sample'> = { signal, progress, log, sample };
  return used as ToolContext;
}
