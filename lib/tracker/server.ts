// The tracker as an MCP server: its definition for the engine, and the link from store
// changes (ours, or another process writing the same file) to notifications: a change goes
// to the resource watch (resource-watch.ts), which reads again only the subscribed resources
// the change touched, and tells which of them now return something else.

import type { AuthInfo } from '../../protocol/context.js';
import type { ServerDefinition } from '../../protocol/definition.js';
import type { ToolDefinition } from '../../protocol/tools.js';
import type { Server } from '../../protocol/server.js';
import type { SubscriptionLimits } from '../../protocol/subscriptions.js';
import type { TrackerStore } from '../store/index.js';
import { trackerPrompts } from './prompts.js';
import { createResourceWatch } from './resource-watch.js';
import { createIssueTexts } from './issue-texts.js';
import { CURRENT_SPRINT_URI } from './resource-uris.js';
import { trackerResources } from './resources.js';
import { trackerTools } from './tools.js';
import { type ToolSelection, selectTools, selectionOf } from './toolsets.js';

export const SERVER_INFO = { name: 'mcp-tracker', version: '0.1.0', title: 'Sprint Tracker (mcp-by-hand)' };

const INSTRUCTIONS = [
  'A sprint tracker. Read jira://sprint/current for live sprint numbers (re-read it after changes; it is computed on every read),',
  'jira://projects for the projects, jira://issue/{key} for one issue. Use search_issues to find issues,',
  'get_issue to read one (with the statuses it can move to), search_issues ready: true for what to do next, and',
  'create_issue, update_issue, add_comment, add_attachment, link_issues and bulk_update_status to change them. Issue keys look like',
  'PROJ-101; statuses are todo, in_progress, in_review, blocked, done, reopened.',
].join(' ');

export interface TrackerServer {
  definition: ServerDefinition;
  /** Connects store changes to the server's connections: resource updates, list changes, log messages. Returns the disconnect. */
  connect(server: Server, report: (line: string) => void): () => void;
  /** How many resources are watched for subscribers now. */
  watching(): number;
}

export interface TrackerServerOptions {
  pageSize?: number;
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /** Seals MRTR requestStates; shared by every instance behind one URL. */
  requestStateKey?: Uint8Array;
  /** --toolsets and --read-only: which tools are offered (all by default). */
  tools?: ToolSelection;
}

/** The instructions name every tool; with a selection they also say which ones this server offers. */
function instructionsFor(offered: readonly { name: string }[], selection: ToolSelection = {}): string {
  if (selection.toolsets === undefined && selection.readOnly !== true) return INSTRUCTIONS;
  const mode = selection.readOnly === true ? 'read-only mode' : `toolsets ${selection.toolsets?.join(', ')}`;
  const names = offered.map((tool) => tool.name).join(', ') || 'none';
  return `${INSTRUCTIONS} This server runs in ${mode}: of those tools it offers only ${names}.`;
}

/**
 * A tool that runs as the person the request's token names (RequestContext.auth) when there is
 * one: the store then takes them as currentUser(), reporter, comment author and history's `by`.
 */
function actingAsCaller(store: TrackerStore, tool: ToolDefinition): ToolDefinition {
  return {
    ...tool,
    run: (args, context) =>
      context.auth ? store.actingAs(context.auth.subject, () => tool.run(args, context)) : tool.run(args, context),
  };
}

/**
 * The tools a request's token (and its narrowing headers) allows, within those this process
 * offers: one set per distinct selection, made once.
 */
function offeredTo(tools: readonly ToolDefinition[]): (auth: AuthInfo | undefined) => ReadonlySet<string> | undefined {
  const made = new Map<string, ReadonlySet<string>>();
  return (auth) => {
    if (auth === undefined) return undefined;
    const selection = selectionOf(auth);
    const key = `${selection.toolsets?.join(',') ?? '*'} ${selection.readOnly === true}`;
    let names = made.get(key);
    if (names === undefined) made.set(key, (names = new Set(selectTools(tools, selection).map((tool) => tool.name))));
    return names;
  };
}

/** The tracker's definition for the engine; one server, however many connections it serves. */
export function createTrackerServer(store: TrackerStore, options: TrackerServerOptions = {}): TrackerServer {
  const texts = createIssueTexts(store); // one text per issue version, for readers and the watch alike
  const watch = createResourceWatch(store, texts);
  const { resources, templates } = trackerResources(store, texts);
  const tools = selectTools(trackerTools(store), options.tools ?? {}).map((tool) => actingAsCaller(store, tool));

  const definition: ServerDefinition = {
    info: SERVER_INFO,
    instructions: instructionsFor(tools, options.tools),
    tools,
    toolsFor: offeredTo(tools),
    resources,
    resourceTemplates: templates,
    prompts: trackerPrompts(store),
    subscriptions: true,
    subscriptionLimits: options.subscriptionLimits,
    onSubscribe: (uri, viewer) => watch.watch(uri, viewer),
    onUnsubscribe: (uri, viewer) => watch.forget(uri, viewer),
    // "Your" sprint: each reader's own (resource-contents.ts readCurrentSprint), watched and told per reader.
    perViewer: (uri) => uri === CURRENT_SPRINT_URI,
    resourceListChanged: true,
    logging: true,
    pageSize: options.pageSize,
    requestStateKey: options.requestStateKey,
  };

  function connect(server: Server, report: (line: string) => void): () => void {
    return store.onChange((event) => {
      for (const change of event.changes) {
        report(`${event.source === 'local' ? 'changed' : 'changed by another process'}: ${change.description}`);
        // Our own changes are logged by the tool that made them, on its request; another
        // process's change has no request here, so it goes out as a session-wide log.
        if (event.source === 'external')
          server.log('info', { source: 'another process', change: change.description, issues: change.issues }, 'tracker');
      }
      if (event.issueSetChanged) server.resourceListChanged();
      for (const { uri, viewer } of watch.changedBy(event)) server.resourceUpdated(uri, viewer);
    });
  }

  return { definition, connect, watching: () => watch.size };
}
