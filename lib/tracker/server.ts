// The tracker as an MCP server: its definition for the engine, and the link from store
// changes to notifications.
//
// "notifications/resources/updated exactly when what that URI returns has changed": on every
// store change (ours, or another process writing the same file) we re-read each subscribed
// URI and compare it with what it returned before, leaving out `read_at`, the one field that
// changes on every read. Subscriptions are few, so this is cheap, and it is exact where
// guessing from the change's keys would not be (a filter query may or may not be affected).

import type { ServerDefinition, Session } from '../../protocol/session.js';
import type { TrackerStore } from '../store/index.js';
import { trackerPrompts } from './prompts.js';
import { readUri, trackerResources } from './resources.js';
import { trackerTools } from './tools.js';

export const SERVER_INFO = { name: 'mcp-tracker', version: '0.1.0', title: 'Sprint Tracker (mcp-by-hand)' };

const INSTRUCTIONS = [
  'A sprint tracker. Read jira://sprint/current for live sprint numbers (re-read it after changes; it is computed on every read),',
  'jira://projects for the projects, jira://issue/{key} for one issue. Use search_issues to find issues,',
  'get_issue to read one, and create_issue, update_status, assign_issue, add_comment, move_to_sprint,',
  'bulk_update_status to change them. Issue keys look like PROJ-101; statuses are todo, in_progress, in_review, done.',
].join(' ');

export interface TrackerServer {
  definition: ServerDefinition;
  /** Connects store changes to the session: resource updates, list changes, log messages. Returns the disconnect. */
  connect(session: Session, report: (line: string) => void): () => void;
}

export function createTrackerServer(store: TrackerStore, options: { pageSize?: number } = {}): TrackerServer {
  // What each subscribed URI returned when it was subscribed or last notified, without `read_at`.
  const lastSeen = new Map<string, string>();
  const { resources, templates } = trackerResources(store);

  const definition: ServerDefinition = {
    info: SERVER_INFO,
    instructions: INSTRUCTIONS,
    tools: trackerTools(store),
    resources,
    resourceTemplates: templates,
    prompts: trackerPrompts(store),
    subscriptions: true,
    onSubscribe: (uris) => uris.forEach((uri) => lastSeen.set(uri, fingerprint(readUri(store, uri)))),
    resourceListChanged: true,
    logging: true,
    pageSize: options.pageSize,
  };

  function connect(session: Session, report: (line: string) => void): () => void {
    return store.onChange((event) => {
      for (const change of event.changes) {
        report(`${event.source === 'local' ? 'changed' : 'changed by another process'}: ${change.description}`);
        // Our own changes are logged by the tool that made them, on its request; another
        // process's change has no request here, so it goes out as a session-wide log.
        if (event.source === 'external')
          session.log('info', { source: 'another process', change: change.description, issues: change.issues }, 'tracker');
      }
      if (event.issueSetChanged) session.resourceListChanged();
      // onSubscribe took a baseline for every subscribed URI.
      for (const uri of session.subscribedUris()) {
        const now = fingerprint(readUri(store, uri));
        if (lastSeen.get(uri) === now) continue;
        lastSeen.set(uri, now);
        session.resourceUpdated(uri);
      }
    });
  }

  return { definition, connect };
}

function fingerprint(value: Record<string, unknown> | null): string {
  if (value === null) return 'null';
  const { read_at: _volatile, ...stable } = value;
  return JSON.stringify(stable);
}
