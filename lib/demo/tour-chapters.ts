// The chapters of `demo --tour` (tour.ts runs them). Each step names the file and function
// that answers it, as `protocol/peer.ts: cancel()` does; lib/tests/tour.test.ts checks that each
// one exists. What a step concludes is read from the messages the server sent, so the
// narration cannot disagree with the wire (tour-steps.ts reads it). Here, the chapters of a
// session's requests and answers, and the list of all in the order the tour runs them; the
// chapters on notifications are in tour-notifications.ts, the 2026-07-28 era in tour-era-2026.ts.

import { ErrorCode } from '../../protocol/errors.js';
import type { WireEvent } from './stdio-client.js';
import { era2026 } from './tour-era-2026.js';
import { progress, subscriptions } from './tour-notifications.js';
import {
  errorLine,
  errorOf,
  names,
  openSession,
  requestStep,
  responses,
  resultOf,
  type Chapter,
  type Message,
} from './tour-steps.js';

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
