// One valid example of every message the server understands, for the tracker's demo data.
// The fuzzer starts from these: sends them as they are, breaks their types field by field,
// mutates their bytes. Mutating examples are mixed in on purpose: the data-unchanged
// invariant must tell "rejected" from "acknowledged" writes.

export interface Example {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  /** A notification: no id. */
  readonly notification?: boolean;
}

const tool = (name: string, args: Record<string, unknown>): Example => ({
  method: 'tools/call',
  params: { name, arguments: args },
});

export const TOOL_EXAMPLES: readonly Example[] = [
  tool('create_issue', {
    project: 'PROJ',
    title: 'Fuzz issue',
    description: 'made by the fuzzer',
    type: 'bug',
    priority: 'P1',
    assignee: 'alice',
    story_points: 3,
    sprint: 'PROJ-S42',
    labels: ['backend'],
  }),
  tool('get_issue', { key: 'PROJ-101' }),
  tool('update_issue', { key: 'PROJ-102', status: 'in_review' }),
  tool('update_issue', { key: 'PROJ-103', assignee: 'bob' }),
  tool('add_comment', { key: 'PROJ-104', body: 'fuzz comment', author: 'carol' }),
  tool('update_issue', { key: 'PROJ-105', sprint: 'PROJ-S43' }),
  tool('search_issues', {
    project: 'PROJ',
    status: ['todo', 'done'],
    priority: 'P0',
    assignee: 'alice',
    sprint: 'PROJ-S42',
    label: 'backend',
    text: 'login',
    limit: 5,
  }),
  tool('bulk_update_status', { keys: ['PROJ-106', 'PROJ-107'], status: 'done' }),
];

export const EXAMPLES: readonly Example[] = [
  {
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { roots: { listChanged: true }, sampling: {} },
      clientInfo: { name: 'fuzz', version: '1' },
    },
  },
  { method: 'ping' },
  { method: 'ping', params: { _meta: { progressToken: 'p1' } } },
  { method: 'tools/list', params: { cursor: 'MA' } },
  ...TOOL_EXAMPLES,
  { method: 'resources/list', params: {} },
  { method: 'resources/templates/list' },
  { method: 'resources/read', params: { uri: 'jira://issue/PROJ-101' } },
  { method: 'resources/read', params: { uri: 'jira://project/PROJ/issues?status=todo&assignee=none&priority=P1' } },
  { method: 'resources/read', params: { uri: 'jira://sprint/current' } },
  { method: 'resources/subscribe', params: { uri: 'jira://issue/PROJ-108' } },
  { method: 'resources/unsubscribe', params: { uri: 'jira://issue/PROJ-108' } },
  { method: 'prompts/list', params: { cursor: 'MA' } },
  { method: 'prompts/get', params: { name: 'triage_issue', arguments: { issue_key: 'PROJ-104' } } },
  { method: 'prompts/get', params: { name: 'standup', arguments: { assignee: 'alice' } } },
  { method: 'logging/setLevel', params: { level: 'warning' } },
  {
    method: 'completion/complete',
    params: {
      ref: { type: 'ref/prompt', name: 'triage_issue' },
      argument: { name: 'issue_key', value: 'PROJ-1' },
      context: { arguments: { project_key: 'PROJ' } },
    },
  },
  {
    method: 'completion/complete',
    params: { ref: { type: 'ref/resource', uri: 'jira://issue/{key}' }, argument: { name: 'key', value: 'W' } },
  },
  { method: 'notifications/initialized', notification: true },
  { method: 'notifications/cancelled', params: { requestId: 'nobody', reason: 'fuzz' }, notification: true },
  { method: 'notifications/progress', params: { progressToken: 1, progress: 1 }, notification: true },
  { method: 'notifications/roots/list_changed', notification: true },
  { method: 'notifications/unknown', params: { x: 1 }, notification: true },
];

/** Tools whose success appends to the journal; see `journalLinesAcknowledged` in oracle.ts. */
export const MUTATING_TOOLS = new Set(['create_issue', 'update_issue', 'link_issues', 'add_comment', 'bulk_update_status']);
