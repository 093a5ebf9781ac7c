// Which subscribed resources a store change changed: "notifications/resources/updated exactly
// when what that URI returns has changed".
//
// Each watched resource (a canonical URI someone is subscribed to, see
// protocol/subscriptions.ts) keeps a fingerprint of what it returned: a SHA-256 of its JSON,
// leaving out `read_at` (the one field that changes on every read), 44 characters however
// large the resource. An issue's is taken from the very text its reads send (issue-texts.ts):
// printed once per version of the issue, for readers and watcher alike, where a
// 10 MB issue was printed again for each (issue 30). Once per change, not per subscriber: a
// resource is watched once however many connections subscribe to it (protocol/server.ts). A change says which issues, sprints and projects it touched
// (lib/store/changes/apply.ts `Change`), and only the resources that read one of them are read again:
//
//   jira://issue/K                      issue K
//   jira://issue/K/attachment/N         issue K (an attachment appears once, never changes)
//   jira://project/P/stats, /issues     project P (every issue change names its project)
//   jira://sprint/S, /burndown(.svg)    sprint S (an issue change names the issue's sprint;
//                                       a move names both)
//   jira://sprint/current               any change to a project: which active sprint it
//   jira://sprints                      describes (and the sprints' points) may move with it
//   jira://project/P/sprint/current     project P
//   jira://projects, jira://people      any change (issue counts, active sprints, who is assigned)
//   jira://issue/K/history              issue K (every change to K names it)
//   jira://issue/K/links, jira://ready  any change: a linked issue, a blocker or a sprint
//                                       anywhere may move them, so they are read again and compared
//
// jira://sprint/current is "my" sprint: what it returns depends on who reads it, so over HTTP it
// is watched per reader (the engine's perViewer), each read as that user (store.actingAs) and
// each told only of a change to their own sprint; "" is a connection without a user (stdio).
//
// A filtered query may or may not change when its project does, so it is read again and its
// fingerprint compared: exact, at the cost of one read per watched resource of that project.
// The work per write follows what the write touched, not what is subscribed.

import { createHash } from 'node:crypto';
import { nextTurn, type ChangeEvent, type TrackerStore } from '../store/index.js';
import { PreEncoded } from '../../protocol/pre-encoded.js';
import { type IssueTexts, createIssueTexts } from './issue-texts.js';
import { issueAt, readUri } from './resource-reads.js';
import { CURRENT_SPRINT_URI, PEOPLE_URI, PROJECTS_URI, TEMPLATES } from './resource-uris.js';

/** A watched resource, and for one watched per reader, whose (see the top of this file). */
export interface Watched {
  readonly uri: string;
  readonly viewer?: string;
}

export interface ResourceWatch {
  /** Notes what a resource holds now (for `viewer`, as they read it). */
  watch(uri: string, viewer?: string): void;
  forget(uri: string, viewer?: string): void;
  /** The watched resources whose content the change altered; their fingerprints move on. */
  changedBy(event: ChangeEvent): Watched[];
  /** Resources watched. */
  readonly size: number;
}

/** `texts`: the issue texts the resources send (trackerResources), so that each is printed once. */
export function createResourceWatch(store: TrackerStore, texts: IssueTexts = createIssueTexts(store)): ResourceWatch {
  // The fingerprint of what each slot read, or, while a large text is being hashed
  // (fingerprintInTurns), the function that finishes it.
  const fingerprints = new Map<string, string | (() => string)>();
  const watchersOf = new Map<string, Set<string>>(); // topic -> watched slots that read it
  const watched = new Map<string, Watched>(); // slot -> the resource and its reader
  // One resource per reader is one slot: the URI alone, or with the reader after a line break.
  const slotOf = (uri: string, viewer?: string): string => (viewer === undefined ? uri : `${uri}\n${viewer}`);

  const readAsItIs = (uri: string, inTurns: boolean): string | (() => string) => {
    if (!TEMPLATES.issue.match(uri)) return fingerprint(readUri(store, uri));
    const issue = issueAt(store, uri);
    if (issue === null) return 'null';
    const text = texts.now(issue);
    return inTurns && text.utf8 !== undefined ? fingerprintInTurns(text.utf8) : fingerprintText(text);
  };
  const read = ({ uri, viewer }: Watched, inTurns = false): string | (() => string) =>
    viewer === undefined || viewer === ''
      ? readAsItIs(uri, inTurns)
      : store.actingAs(viewer, () => fingerprint(readUri(store, uri)));
  const noted = (slot: string): string | undefined => {
    const found = fingerprints.get(slot);
    return typeof found === 'function' ? found() : found;
  };

  return {
    watch(uri, viewer) {
      const slot = slotOf(uri, viewer);
      watched.set(slot, { uri, viewer });
      fingerprints.set(slot, read({ uri, viewer }, true));
      for (const topic of topicsOf(uri)) {
        let slots = watchersOf.get(topic);
        if (!slots) watchersOf.set(topic, (slots = new Set()));
        slots.add(slot);
      }
    },
    forget(uri, viewer) {
      const slot = slotOf(uri, viewer);
      watched.delete(slot);
      fingerprints.delete(slot);
      for (const topic of topicsOf(uri)) {
        const slots = watchersOf.get(topic);
        slots?.delete(slot);
        if (slots?.size === 0) watchersOf.delete(topic);
      }
    },
    changedBy(event) {
      const candidates = new Set<string>();
      for (const topic of touchedBy(event)) {
        for (const slot of watchersOf.get(topic) ?? []) candidates.add(slot);
      }
      return [...candidates].flatMap((slot) => {
        const resource = watched.get(slot) as Watched;
        const now = read(resource);
        if (noted(slot) === now) return [];
        fingerprints.set(slot, now);
        return [resource];
      });
    },
    get size() {
      return fingerprints.size;
    },
  };
}

/** What a resource reads, as topics a change can touch; nothing for a URI that reads nothing in any state. */
function topicsOf(uri: string): string[] {
  if (uri === PROJECTS_URI || uri === PEOPLE_URI || TEMPLATES.ready.match(uri) || TEMPLATES.links.match(uri)) return ['projects'];
  if (uri === CURRENT_SPRINT_URI || TEMPLATES.sprints.match(uri)) return ['current sprint'];
  const project = TEMPLATES.projectSprint.match(uri);
  if (project) return [`project ${project.project_key}`];
  let vars = TEMPLATES.issue.match(uri) ?? TEMPLATES.attachment.match(uri) ?? TEMPLATES.history.match(uri);
  if (vars) return [`issue ${vars.key}`];
  if ((vars = TEMPLATES.projectStats.match(uri) ?? TEMPLATES.projectIssues.match(uri))) return [`project ${vars.project_key}`];
  vars = TEMPLATES.sprint.match(uri) ?? TEMPLATES.burndown.match(uri) ?? TEMPLATES.burndownSvg.match(uri);
  if (vars) return [`sprint ${vars.sprint_id}`];
  return [];
}

function touchedBy(event: ChangeEvent): string[] {
  return [
    'projects',
    ...(event.projects.length > 0 ? ['current sprint'] : []),
    ...event.issues.map((key) => `issue ${key}`),
    ...event.projects.map((key) => `project ${key}`),
    ...event.sprints.map((id) => `sprint ${id}`),
  ];
}

function fingerprint(value: Record<string, unknown> | null): string {
  if (value === null) return 'null';
  const { read_at: _volatile, ...stable } = value;
  return createHash('sha256').update(JSON.stringify(stable)).digest('base64');
}

/** Chunks of a text hashed in one turn of the event loop: a 10 MB issue's text is 40 (pre-encoded.ts). */
const CHUNKS_PER_TURN = 2;

/**
 * fingerprintText's digest of a text kept as bytes, taken a few chunks a turn (taking turns with
 * other long work: the store's nextTurn), so that a ping is read between them (a first subscribe
 * to a 10 MB issue hashed it in one piece). The function returned gives the digest, finishing at
 * once what is left when asked before the end (a change that came meanwhile).
 */
function fingerprintInTurns(chunks: readonly Buffer[]): string | (() => string) {
  if (chunks.length <= CHUNKS_PER_TURN) return fingerprintText(chunks);
  const hash = createHash('sha256');
  let next = 0;
  let digest: string | undefined;
  const hashUpTo = (end: number): void => {
    while (next < Math.min(end, chunks.length)) hash.update(chunks[next++] as Buffer);
    if (next === chunks.length) digest ??= hash.digest('base64');
  };
  const step = (): void => {
    hashUpTo(next + CHUNKS_PER_TURN);
    if (digest === undefined) void nextTurn().then(step);
  };
  void nextTurn().then(step);
  return () => {
    hashUpTo(chunks.length);
    return digest as string;
  };
}

function fingerprintText(text: PreEncoded<string> | readonly Buffer[]): string {
  const chunks = text instanceof PreEncoded ? (text.utf8 ?? [text.json]) : text;
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('base64');
}
