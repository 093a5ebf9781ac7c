// The requests the benchmark sends: the handshake, the measured operations, the mixed set,
// and the fixed set of checks both real servers must answer alike.

export const PROTOCOL_VERSION = '2025-06-18';
export const STATELESS_VERSION = '2026-07-28';

/**
 * How the client speaks: 'handshake' opens with `initialize` (2025-06-18); 'stateless' sends
 * no handshake, every request carrying its version, capabilities and identity in `_meta`
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic "Statelessness").
 */
export type Era = 'handshake' | 'stateless';
export const ERAS: readonly Era[] = ['handshake', 'stateless'];

export interface Call {
  method: string;
  params?: Record<string, unknown>;
}

const CLIENT_INFO = { name: 'mcp-bench', version: '1.0.0' };

export const INITIALIZE: Call = {
  method: 'initialize',
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
};
/** The 2026-07-28 opening a client makes before its first real request. */
export const DISCOVER: Call = { method: 'server/discover' };

/** What every 2026-07-28 request of the benchmark carries in its `_meta`. */
export const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

/** The params a call carries in `era`: in 2026-07-28, its `_meta` names the version. */
export function paramsIn(era: Era, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (era === 'handshake') return params;
  const meta = (params?._meta ?? {}) as Record<string, unknown>;
  return { ...params, _meta: { ...meta, ...STATELESS_META } };
}

/** Keys that exist in the 1,000-issue file (PROJ-101 … PROJ-959 are all PROJ issues). */
export const issueKey = (i: number): string => `PROJ-${101 + ((i * 37) % 800)}`;

const SEARCHES: Record<string, unknown>[] = [
  { text: 'payment' },
  { text: 'checkout webhook', status: 'todo' },
  { status: ['todo', 'in_progress'], priority: 'P0' },
  { assignee: 'alice', sprint: 'PROJ-S42' },
  { label: 'cache', limit: 50 },
];
/** The measured search: a word scan over every issue, filtered, one page of 20. */
export const SEARCH_QUERY = { project: 'PROJ', text: 'payment slow', status: ['todo', 'in_progress'], limit: 20 };

export const tool = (name: string, args: Record<string, unknown>): Call => ({
  method: 'tools/call',
  params: { name, arguments: args },
});
export const read = (uri: string): Call => ({ method: 'resources/read', params: { uri } });

/**
 * The operations whose sequential latency is measured. The same search again is answered
 * from a cache until the data changes (lib/store/queries/derived.ts); `search_uncached` spells the
 * words in a different mix of upper and lower case every time (2,048 spellings, the same
 * matches and the same answer), so each one scans the 1,000 issues.
 */
export const LATENCY_OPS: Record<string, (i: number) => Call> = {
  ping: () => ({ method: 'ping' }),
  read_sprint: () => read('jira://sprint/current'),
  get_issue: (i) => tool('get_issue', { key: issueKey(i) }),
  search_issues: () => tool('search_issues', SEARCH_QUERY),
  search_uncached: (i) => tool('search_issues', { ...SEARCH_QUERY, text: spelling(SEARCH_QUERY.text, i) }),
};

/** The `i`-th mix of upper and lower case of the letters of `text`. */
function spelling(text: string, i: number): string {
  let letter = 0;
  return text.replace(/[a-z]/g, (c) => ((i >> letter++) & 1 ? c.toUpperCase() : c));
}

/**
 * The mixed set: what a busy client does, all read-only so every run sees the same data.
 * 2026-07-28 has no `ping`: there, its turn is one more get_issue.
 */
export const mixedIn =
  (era: Era) =>
  (i: number): Call =>
    era === 'stateless' && i % 6 === 0 ? tool('get_issue', { key: issueKey(i + 3) }) : mixed(i);

export function mixed(i: number): Call {
  switch (i % 6) {
    case 0:
      return { method: 'ping' };
    case 1:
      return tool('get_issue', { key: issueKey(i) });
    case 2:
      return tool('search_issues', SEARCHES[i % SEARCHES.length] ?? {});
    case 3:
      return read('jira://sprint/current');
    case 4:
      return read(`jira://issue/${issueKey(i + 1)}`);
    default:
      return tool('get_issue', { key: issueKey(i + 2) });
  }
}

/** The shared surface, checked before anything is measured. */
export const CHECKS: Call[] = [
  { method: 'ping' },
  { method: 'tools/list' },
  { method: 'resources/list' },
  { method: 'resources/templates/list' },
  { method: 'prompts/list' },
  read('jira://projects'),
  read('jira://sprint/current'),
  read('jira://issue/PROJ-102'),
  read('jira://issue/PROJ-500'),
  read('jira://project/PROJ/stats'),
  read('jira://sprint/PROJ-S42'),
  // All three query variables: the SDK's template matcher fails when any is left out.
  read('jira://project/PROJ/issues?status=in_progress&assignee=alice&priority=P1'),
  tool('get_issue', { key: 'PROJ-102' }),
  tool('get_issue', { key: 'PROJ-777' }),
  tool('get_issue', { key: 'PROJ-99999' }),
  tool('search_issues', SEARCH_QUERY),
  ...SEARCHES.map((query) => tool('search_issues', query)),
  { method: 'prompts/get', params: { name: 'triage_issue', arguments: { issue_key: 'PROJ-104' } } },
  { method: 'prompts/get', params: { name: 'sprint_review', arguments: {} } },
  { method: 'prompts/get', params: { name: 'standup', arguments: { assignee: 'alice' } } },
  {
    method: 'completion/complete',
    params: { ref: { type: 'ref/resource', uri: 'jira://issue/{key}' }, argument: { name: 'key', value: 'PROJ-11' } },
  },
  {
    method: 'completion/complete',
    params: { ref: { type: 'ref/prompt', name: 'standup' }, argument: { name: 'assignee', value: 'a' } },
  },
];

/** An 8 MiB ping: the params carry padding, the answer is `{}`; what is measured is the framer. */
export function hugePing(id: string, bytes: number): string {
  const head = `{"jsonrpc":"2.0","id":"${id}","method":"ping","params":{"_meta":{"pad":"`;
  const tail = '"}}}\n';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}
