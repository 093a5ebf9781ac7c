// The chapters of `demo --tour` (tour.ts runs them). Each step names the file and function
// that answers it, as `protocol/peer.ts: cancel()` does; lib/tests/tour.test.ts checks that each
// one exists. What a step concludes is read from the messages the server sent, so the
// narration cannot disagree with the wire.

import { ErrorCode } from '../../protocol/errors.js';
import type { WireEvent } from './stdio-client.js';
import type { TourSession } from './tour-session.js';

export interface Chapter {
  name: string;
  title: string;
  intro: string[];
  run(tour: TourSession): Promise<void>;
}

type Message = Record<string, unknown>;

/** A wire line as an object; a line that is not a JSON object reads as an empty one. */
export function parsed(event: WireEvent): Message {
  try {
    const value = JSON.parse(event.line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Message) : {};
  } catch {
    return {};
  }
}

const fromServer = (events: WireEvent[]): Message[] => events.filter((e) => e.direction === 'received').map(parsed);
const responses = (events: WireEvent[]): Message[] => fromServer(events).filter((m) => 'result' in m || 'error' in m);
const notifications = (events: WireEvent[], method?: string): Message[] =>
  fromServer(events).filter((m) => !('id' in m) && (method === undefined || m.method === method));
const resultOf = (events: WireEvent[], index = 0): Message => (responses(events)[index]?.result ?? {}) as Message;
const errorOf = (events: WireEvent[], index = 0): Message => (responses(events)[index]?.error ?? {}) as Message;
const names = (items: unknown): string[] => (Array.isArray(items) ? items.map((item) => String((item as Message).name)) : []);
/** The id of the last request sent. */
const lastSentId = (events: WireEvent[]): unknown => parsed(events.filter((e) => e.direction === 'sent').at(-1)!).id;

/** Where a message is in the wire's order. */
const positionOf = (events: WireEvent[], test: (m: Message) => boolean): number =>
  events.findIndex((e) => e.direction === 'received' && test(parsed(e)));

/** The 2026-07-28 `_meta` a request carries instead of a handshake. */
const meta2026 = (capabilities: Message = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

/** A step that sends one request and concludes from what came back. */
const requestStep = (
  tour: TourSession,
  say: string,
  method: string,
  params?: Message,
  conclude?: (events: WireEvent[]) => string[],
): Promise<WireEvent[]> => tour.step(say, () => tour.client.request(method, params), conclude);

/** What a protocol error said: its code and message. */
const errorLine = (events: WireEvent[]): string[] => [
  `Error ${String(errorOf(events).code)}: ${String(errorOf(events).message)}`,
];

/** A chapter run on its own opens the session first; in the whole tour, chapter handshake has. */
async function openSession(tour: TourSession): Promise<void> {
  if (tour.sessionOpen) return;
  tour.sessionOpen = true;
  await tour.step(
    'initialize opens a handshake-era session (chapter handshake explains it): the revision is negotiated once, for the whole connection.',
    () => tour.client.initialize('2025-11-25'),
    (events) => [`Negotiated ${String(resultOf(events).protocolVersion)}.`],
  );
}

const handshake: Chapter = {
  name: 'handshake',
  title: 'opening a session',
  intro: [
    'A handshake-era client (2024-11-05 to 2025-11-25) opens with initialize, once, and says it is done with',
    'notifications/initialized. Only then may the server send it requests.',
  ],
  async run(tour) {
    await tour.step(
      'initialize: the client proposes a revision; the server answers with the same one if it speaks it, else its newest (protocol/versions.ts: negotiateVersion()), with capabilities derived from what it serves (protocol/capabilities.ts: capabilitiesFor()).',
      () => {
        tour.sessionOpen = true;
        return tour.client.request('initialize', initializeParams('2025-11-25'));
      },
      (events) => {
        const result = resultOf(events);
        return [
          `Negotiated ${String(result.protocolVersion)}; the server declares ${Object.keys((result.capabilities ?? {}) as Message).join(', ')}.`,
        ];
      },
    );
    await tour.step(
      'notifications/initialized has no id: a notification, never answered (protocol/session.ts: #handleNotification()). A ping follows, which either side may send at any time.',
      async () => {
        tour.client.notify('notifications/initialized');
        await tour.client.request('ping');
      },
      (events) => [
        `${responses(events).length} answer came back, to the ping (id ${String(responses(events)[0]?.id)}); the notification got none.`,
      ],
    );
    await requestStep(
      tour,
      'A second initialize on the same connection is refused before any negotiation: the lifecycle allows one per connection (protocol/era-router.ts: runHandshake()). A revision the server does not know is negotiated only on a new connection: it answers with its newest (the fixture spec-tests/fixtures/generic/lifecycle/initialize-unknown-version.txtar shows it).',
      'initialize',
      initializeParams('2025-11-25'),
      errorLine,
    );
  },
};

function initializeParams(protocolVersion: string): Message {
  return { protocolVersion, capabilities: {}, clientInfo: { name: 'mcp-tracker-tour', version: '1.0.0' } };
}

const listing: Chapter = {
  name: 'listing',
  title: 'what the server offers',
  intro: [
    'Tools are verbs the model calls, resources nouns the host reads, prompts conversations the user picks.',
    'Each list is one row of the method table (protocol/methods.ts), paginated by an opaque cursor.',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'tools/list: each tool with its input schema, output schema and annotations (protocol/tools.ts: describeTool()).',
      'tools/list',
      undefined,
      (events) => [`${names(resultOf(events).tools).length} tools: ${names(resultOf(events).tools).join(', ')}.`],
    );
    await requestStep(
      tour,
      'resources/list: the fixed resources, one page at a time (protocol/pagination.ts: paginate()); a nextCursor would ask for the next page.',
      'resources/list',
      undefined,
      (events) => {
        const result = resultOf(events);
        const cursor =
          result.nextCursor === undefined ? 'no nextCursor: this is the last page' : 'a nextCursor: more pages follow';
        return [`${names(result.resources).length} resources on this page, ${cursor}.`];
      },
    );
    await tour.step(
      'resources/templates/list and prompts/list: families of resources named by URI templates, and the prompts.',
      async () => {
        await tour.client.request('resources/templates/list');
        await tour.client.request('prompts/list');
      },
      (events) => {
        const templates = ((resultOf(events, 0).resourceTemplates ?? []) as Message[]).map((t) => String(t.uriTemplate));
        return [`Templates: ${templates.join(', ')}.`, `Prompts: ${names(resultOf(events, 1).prompts).join(', ')}.`];
      },
    );
  },
};

const resources: Chapter = {
  name: 'resources',
  title: 'reading resources',
  intro: [
    'resources/read answers with contents; a fixed URI is looked up, a template is matched (protocol/resources.ts: read()).',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'A fixed resource: jira://projects, listed by resources/list; computed at each read like every resource here, with live counts.',
      'resources/read',
      { uri: 'jira://projects' },
    );
    await requestStep(
      tour,
      'A dynamic resource: jira://sprint/current is computed when read, so it changes as the data does.',
      'resources/read',
      { uri: 'jira://sprint/current' },
      (events) => {
        const sprint = jsonText(contentsOf(events)[0]);
        return [
          `Its text is JSON (${String(contentsOf(events)[0]?.mimeType)}), computed at this read: progress_pct ${String(sprint.progress_pct)}, read_at ${String(sprint.read_at)}.`,
        ];
      },
    );
    await requestStep(
      tour,
      'A template, jira://issue/{key}, filled in: one issue (protocol/uri-template.ts: compileUriTemplate()).',
      'resources/read',
      { uri: 'jira://issue/PROJ-101' },
      (events) => [`The URI read: ${String(contentsOf(events)[0]?.uri)}.`],
    );
    await requestStep(
      tour,
      'A URI nothing answers: a protocol error, whose code depends on the revision (resourceNotFoundCode in protocol/versions.ts: rulesFor()).',
      'resources/read',
      { uri: 'jira://issue/PROJ-999' },
      errorLine,
    );
  },
};

const contentsOf = (events: WireEvent[]): Message[] => (resultOf(events).contents ?? []) as Message[];

/** A resource's text read as the JSON it holds; an empty object when it holds none. */
function jsonText(contents: Message | undefined): Message {
  try {
    return JSON.parse(String(contents?.text)) as Message;
  } catch {
    return {};
  }
}

const tools: Chapter = {
  name: 'tools',
  title: 'calling tools, and two kinds of failure',
  intro: [
    'tools/call finds the tool, checks its arguments and runs it (protocol/tools.ts: call()). A tool that fails still',
    'answers with a result, isError: true, for the model to read and correct; a request that is wrong gets a protocol error.',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'get_issue succeeds: content for any client, and structuredContent that fits its outputSchema (protocol/tools.ts: shapeResult()).',
      'tools/call',
      { name: 'get_issue', arguments: { key: 'PROJ-101' } },
      (events) => [
        `isError: ${String(resultOf(events).isError ?? false)}; structuredContent present: ${'structuredContent' in resultOf(events)}.`,
      ],
    );
    await requestStep(
      tour,
      'create_issue in a project that does not exist: the tool fails, and says why in a result (protocol/tools.ts: call()).',
      'tools/call',
      { name: 'create_issue', arguments: { project: 'NOPE', title: 'Tour issue' } },
      (events) => [`A result with isError: ${String(resultOf(events).isError)}; the model reads: ${textOf(resultOf(events))}`],
    );
    await requestStep(
      tour,
      'A tool that does not exist: the request itself is wrong, a protocol error for the client, not the model.',
      'tools/call',
      { name: 'no_such_tool', arguments: {} },
      errorLine,
    );
  },
};

const textOf = (result: Message): string => String(((result.content ?? []) as Message[])[0]?.text ?? '');

const errors: Chapter = {
  name: 'errors',
  title: 'protocol errors',
  intro: ['Each code is declared in protocol/errors.ts (ErrorCode); OVERVIEW.md lists where each one is produced.'],
  async run(tour) {
    await openSession(tour);
    await tour.step(
      `A line that is not JSON: ${ErrorCode.ParseError}, with id null since no id could be read (protocol/session.ts: #receive()).`,
      async () => {
        const from = tour.mark;
        tour.sendRaw('{"jsonrpc": "2.0", "id": 99, "method": "ping"');
        await tour.waitFor(from, (m) => 'error' in m, 3000);
      },
      (events) => [`Error ${String(errorOf(events).code)}, id ${JSON.stringify(responses(events)[0]?.id)}.`],
    );
    await requestStep(
      tour,
      `An unknown method: ${ErrorCode.MethodNotFound} (protocol/era-router.ts: runHandshake()).`,
      'tools/delete',
      {},
      errorLine,
    );
    await requestStep(
      tour,
      `Params that do not fit the method: ${ErrorCode.InvalidParams}, naming what is wrong (protocol/validation.ts: parseOrThrow()).`,
      'resources/read',
      { url: 'jira://projects' },
      errorLine,
    );
  },
};

const completion: Chapter = {
  name: 'completion',
  title: 'completing an argument',
  intro: ['completion/complete suggests values for a template variable or a prompt argument while the user types.'],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'Suggestions for {key} in jira://issue/{key}, typed so far: PROJ-11 (protocol/methods.ts: findCompleter()).',
      'completion/complete',
      {
        ref: { type: 'ref/resource', uri: 'jira://issue/{key}' },
        argument: { name: 'key', value: 'PROJ-11' },
      },
      (events) => {
        const found = (resultOf(events).completion ?? {}) as Message;
        return [`${JSON.stringify(found.values)}; total ${String(found.total)}, hasMore ${String(found.hasMore)}.`];
      },
    );
  },
};

const prompts: Chapter = {
  name: 'prompts',
  title: 'a prompt',
  intro: ['A prompt is a conversation the user picks, filled in with arguments (protocol/prompts.ts: createPromptRegistry()).'],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'prompts/get triage_issue for PROJ-101: messages ready for the model, with the live issue embedded.',
      'prompts/get',
      { name: 'triage_issue', arguments: { issue_key: 'PROJ-101' } },
      (events) => {
        const messages = (resultOf(events).messages ?? []) as Message[];
        return [`${messages.length} messages, roles: ${messages.map((m) => String(m.role)).join(', ')}.`];
      },
    );
  },
};

const progress: Chapter = {
  name: 'progress',
  title: 'progress and cancellation',
  intro: [
    "A client that wants progress puts a progressToken in the request's _meta; it can stop a request with",
    'notifications/cancelled. Both are notifications: never answered.',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'bulk_update_status on three issues, with a progressToken: one notifications/progress per issue (protocol/context.ts: progress()).',
      'tools/call',
      {
        name: 'bulk_update_status',
        arguments: { keys: ['PROJ-104', 'PROJ-106', 'PROJ-108'], status: 'in_progress' },
        _meta: { progressToken: 'tour-progress' },
      },
      (events) => {
        const sent = notifications(events, 'notifications/progress');
        const last = events.findLastIndex((e) => e.direction === 'received' && parsed(e).method === 'notifications/progress');
        const answer = positionOf(events, (m) => 'result' in m);
        const order = last < answer ? 'all of them before the result' : 'one after the result (a bug: rule A-19 forbids it)';
        return [`${sent.length} progress notifications, ${order}; none may follow the answer.`];
      },
    );
    await cancelStep(tour);
  },
};

// Three issues in todo, moved to in_progress: a move every workflow of the tracker allows.
// The long run repeats the demo issues; a move an issue's status refuses is reported in the
// result, and counts for progress like any other.
const MANY_KEYS = Array.from({ length: 400 }, (_, index) => `PROJ-${101 + (index % 14)}`);

async function cancelStep(tour: TourSession): Promise<void> {
  let answered = true;
  await tour.step(
    'A long bulk_update_status; the client sends notifications/cancelled as soon as the first progress arrives, and the server stops (protocol/peer.ts: cancel()); a ping shows the session goes on. The wire below is in the order messages crossed it: progress the server sent while the client reacted shows before the cancel.',
    async () => {
      const from = tour.mark;
      const call = tour.client
        .request(
          'tools/call',
          {
            name: 'bulk_update_status',
            arguments: { keys: MANY_KEYS, status: 'in_progress' },
            _meta: { progressToken: 'tour-cancel' },
          },
          1500,
        )
        .catch(() => (answered = false));
      await tour.waitFor(from, (m) => m.method === 'notifications/progress', 3000);
      const id = lastSentId(tour.wireSince(from));
      tour.client.notify('notifications/cancelled', { requestId: id, reason: 'the user pressed stop' });
      await call;
      await tour.client.request('ping');
    },
    (events) => {
      const cancel = events.findIndex((e) => e.direction === 'sent' && parsed(e).method === 'notifications/cancelled');
      const before = notifications(events.slice(0, cancel), 'notifications/progress').length;
      const crossed = notifications(events.slice(cancel), 'notifications/progress').length;
      return [
        `${before} progress notification(s) arrived before the cancel left: the first one made the client cancel, the server sent the others meanwhile.`,
        answered
          ? 'The result was already on its way when the cancel left: a client must expect that and ignore it.'
          : 'No response for the cancelled id: the server dropped it (protocol/peer.ts: answer()), and answered the ping.',
        ...(crossed > 0
          ? [`${crossed} progress notification(s) crossed the cancel on the wire, sent before the server read it.`]
          : []),
      ];
    },
  );
}

const subscriptions: Chapter = {
  name: 'subscriptions',
  title: 'a subscription and its notification',
  intro: [
    'A client subscribes to a resource; when what it returns changes, the server sends notifications/resources/updated',
    'with the URI, and the client reads it again. The order below is the order the lines arrived in.',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'resources/subscribe to jira://issue/PROJ-101 (protocol/subscriptions.ts: createSubscriptionRegistry()).',
      'resources/subscribe',
      { uri: 'jira://issue/PROJ-101' },
    );
    await tour.step(
      'add_comment on PROJ-101 changes what that URI returns: the store reports the change (lib/tracker/server.ts: connect()), the watch finds the subscribed URIs whose content moved (lib/tracker/resource-watch.ts: changedBy()), and each session tells its subscribers (protocol/session.ts: resourceUpdated()).',
      () =>
        Promise.all([
          tour.client.request('tools/call', {
            name: 'add_comment',
            arguments: { key: 'PROJ-101', body: 'Seen on the tour.', author: 'tour' },
          }),
          tour.client.nextNotification('notifications/resources/updated', 3000),
        ]),
      (events) => {
        const notice = positionOf(events, (m) => m.method === 'notifications/resources/updated');
        const answer = positionOf(events, (m) => 'result' in m);
        return [
          notice < answer
            ? 'The notification arrived BEFORE the tool result: the store reports a change while the tool is still running, and the result is sent when the tool returns.'
            : 'The notification arrived AFTER the tool result: the change was announced once the tool had answered.',
        ];
      },
    );
  },
};

const era2026: Chapter = {
  name: 'era2026',
  title: 'the 2026-07-28 era: discover and a multi round-trip request',
  intro: [
    'A 2026-07-28 request carries its version and capabilities in _meta and needs no session: the same connection',
    'serves both eras, request by request (protocol/era-router.ts: createEraRouter()).',
  ],
  async run(tour) {
    await requestStep(
      tour,
      'server/discover: what initialize told, as a cacheable answer (protocol/stateless.ts: completeResult() adds resultType and cache hints).',
      'server/discover',
      { _meta: meta2026() },
      (events) => [
        `resultType ${String(resultOf(events).resultType)}; supported: ${JSON.stringify(resultOf(events).supportedVersions)}.`,
      ],
    );
    const first = await requestStep(
      tour,
      'create_issue without a title, from a client that can show a form: the server does not send a request, it answers input_required with the question and a sealed requestState (protocol/asking.ts: runAsking()).',
      'tools/call',
      {
        name: 'create_issue',
        arguments: { project: 'PROJ' },
        _meta: meta2026({ elicitation: { form: {} } }),
      },
      (events) => [
        `resultType ${String(resultOf(events).resultType)}, asking under: ${Object.keys((resultOf(events).inputRequests ?? {}) as Message).join(', ')}.`,
      ],
    );
    const asked = resultOf(first);
    const key = Object.keys((asked.inputRequests ?? {}) as Message)[0] ?? '';
    await requestStep(
      tour,
      'The client asks its user, then calls again, a new request, with the answer and the requestState back unchanged (protocol/mrtr.ts: createRounds()).',
      'tools/call',
      {
        name: 'create_issue',
        arguments: { project: 'PROJ' },
        inputResponses: { [key]: { action: 'accept', content: { title: 'Filed during the tour' } } },
        requestState: asked.requestState,
        _meta: meta2026({ elicitation: { form: {} } }),
      },
      (events) => {
        const result = resultOf(events);
        const issue = ((result.structuredContent ?? {}) as Message).issue as Message | undefined;
        const listChanged = notifications(events, 'notifications/resources/list_changed').length > 0;
        return [
          `resultType ${String(result.resultType)}, isError ${String(result.isError ?? false)}: created ${String(issue?.key)}.`,
          ...(listChanged
            ? [
                'notifications/resources/list_changed went to the handshake-era session on this connection: a new issue is a new resource.',
              ]
            : []),
        ];
      },
    );
  },
};

export const CHAPTERS: readonly Chapter[] = [
  handshake,
  listing,
  resources,
  tools,
  errors,
  completion,
  prompts,
  progress,
  subscriptions,
  era2026,
];
