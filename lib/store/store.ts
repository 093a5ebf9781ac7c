// The store: opens the journal, answers queries from memory, and performs
// mutations under the cross-process lock.
//
// A mutation, step by step (all of it synchronous once the lock is held, so
// nothing else in this process can run in between):
//   1. take the lock (waiting, bounded, for other processes),
//   2. catch up: apply what other processes appended since our last read,
//   3. plan: check the request against the now-current state (DomainError
//      if it does not fit; nothing is written),
//   4. append the record, fdatasync, apply it to our state (fenced: if another
//      writer got in while we stalled, plan again from step 1, see lock.ts),
//   5. release the lock, tell listeners, return.
// The promise resolves only after step 4, so an acknowledged change is on
// disk. Queries first pick up any complete lines other processes appended
// (one stat() of the path, shared by the reads of one synchronous run, when there are
// none), and a file watcher does the same in the background so change listeners hear
// about other processes within ~250 ms.
import fs from 'node:fs';
import path from 'node:path';
import type { Change } from './apply.js';
import { parseHandle, parseIssueKey, parseProjectKey, parseSprintId, parseText } from './args.js';
import {
  parseCreateIssue,
  planAssignment,
  planComment,
  planCreateIssue,
  planSprintMove,
  planStatusChange,
  type CreateIssueInput,
} from './commands.js';
import {
  completeAssignees,
  completeIssueKeys,
  completePriorities,
  completeProjectKeys,
  completeSprintIds,
  completeStatuses,
  type Completion,
} from './completions.js';
import { demoRecords } from './demo-data.js';
import { createDerivedCache } from './derived.js';
import { domainError, isDomainError, isStoreFileError, storeFileError, type StoreFileError } from './errors.js';
import { appendRecord, catchUp, closeJournal, createJournal, ensureSameFile, openJournal } from './journal.js';
import { withFileLock, type LockOptions } from './lock.js';
import type { Logger } from './log.js';
import { requireIssue, requireProject, requireSprint } from './lookup.js';
import {
  getIssue,
  listIssues,
  searchIssues,
  searchIssuesYielding,
  type ListIssuesQuery,
  type Page,
  type SearchIssuesQuery,
} from './queries.js';
import type { ResolveContext } from './jql/resolve.js';
import {
  LIMITS,
  type Comment,
  type Issue,
  type Project,
  type RecordDraft,
  type Sprint,
  type SprintState,
  type Status,
} from './schema.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from './state.js';
import { currentSprintStats, projectStats, sprintStats, type ProjectStats, type SprintStats } from './stats.js';
import { watchForAppends } from './watch.js';
import { allowedMoves, parseResolution, parseStatus } from './workflow.js';
import { issueLinks, linkKeys, parseLinkRequest, planLink, type IssueLinks } from './links.js';
import { readyKeys } from './ready.js';
import { partlyDone, updateSteps, type UpdateIssueInput } from './update.js';
import type { IssueLink } from './state.js';

export interface OpenStoreOptions {
  /** Absolute path of the data file (see resolveDataPath). Created with demo data if missing. */
  readonly path: string;
  /** Where diagnostics go (never stdout). */
  readonly log: Logger;
  /** The clock; tests pass a fixed one. Default: () => new Date(). */
  readonly now?: () => Date;
  /** Reporter / comment author when the caller names none. Default: the user, else 'assistant'. */
  readonly actor?: string;
  /** Who is using the tracker (--user, MCP_TRACKER_USER): what currentUser() means in a query. Default: nobody. */
  readonly user?: string;
  /** How long a mutation waits for another process's lock. Default: 5000 ms. */
  readonly lockTimeoutMs?: number;
  /** A lock held longer than this is presumed abandoned. Default: 30000 ms. */
  readonly staleLockMs?: number;
  /** Watch the file for other processes' changes. Default: true. */
  readonly watch?: boolean;
  /** Polling interval of the watch fallback. Default: 250 ms. */
  readonly pollIntervalMs?: number;
  /** A mutation that would take the data file past this many bytes is refused. Default: LIMITS.maxJournalBytes (512 MiB). */
  readonly maxFileBytes?: number;
}

/** The result of a mutation on one issue. */
export interface IssueMutation {
  /** The issue after the mutation (unchanged if the request changed nothing). */
  readonly issue: Issue;
  /** What changed. Empty key lists and a "nothing changed" description for a no-op. */
  readonly change: Change;
}

/** The result of addComment: the comment as stored, beside the issue it went to. */
export interface CommentMutation extends IssueMutation {
  readonly comment: Comment;
}

export interface ChangeEvent {
  /** 'local': this store's mutation; 'external': another process (or store) appended. */
  readonly source: 'local' | 'external';
  readonly changes: readonly Change[];
  /** Union over `changes`. */
  readonly issues: readonly string[];
  readonly sprints: readonly string[];
  readonly projects: readonly string[];
  readonly issueSetChanged: boolean;
}

export type ChangeListener = (event: ChangeEvent) => void;

export type BulkOutcome =
  | { readonly key: string; readonly ok: true; readonly changed: boolean; readonly description: string }
  | { readonly key: string; readonly ok: false; readonly error: string };

export interface BulkResult {
  /** One outcome per key attempted, in the order given. */
  readonly results: readonly BulkOutcome[];
  readonly changed: number;
  readonly failed: number;
  /** Keys not attempted because the signal aborted. */
  readonly not_attempted: readonly string[];
  readonly cancelled: boolean;
}

export interface BulkOptions {
  /** Checked before each issue: abort to stop after the current one. */
  readonly signal?: AbortSignal;
  /** Called after each issue. */
  readonly onProgress?: (done: number, total: number) => void;
}

export const BULK_MAX = 500;

export interface TrackerStore {
  readonly path: string;

  // Queries: synchronous, from memory (after picking up other processes' appends).
  getIssue(key: string): Issue;
  /** The statuses the issue may move to now (workflow.ts). */
  getTransitions(key: string): readonly Status[];
  /** The issue's links as it reads them (type and key). */
  getLinkKeys(key: string): readonly IssueLink[];
  /** Every link with the other issue's title, status and priority, and whether the issue is unblocked. */
  getIssueLinks(key: string): IssueLinks;
  /** The ready view (ready.ts): of one project, or of all. */
  getReady(project?: string): readonly Issue[];
  listIssues(query?: ListIssuesQuery): Page<Issue>;
  /** Runs the whole scan at once: for callers that must answer now. */
  searchIssues(query: SearchIssuesQuery): Page<Issue>;
  /** The same answer, letting other work run between slices of the scan (see queries.ts). */
  searchIssuesYielding(query: SearchIssuesQuery): Promise<Page<Issue>>;
  getProject(key: string): Project;
  listProjects(): readonly Project[];
  getSprint(id: string): Sprint;
  listSprints(filter?: { readonly project?: string; readonly state?: SprintState }): readonly Sprint[];
  getProjectStats(project: string): ProjectStats;
  /** Stats of the project's active sprint. */
  getCurrentSprintStats(project: string): SprintStats;
  getSprintStats(sprintId: string): SprintStats;
  completeIssueKeys(prefix: string): Completion;
  completeProjectKeys(prefix: string): Completion;
  completeAssignees(prefix: string): Completion;
  completeStatuses(prefix: string): Completion;
  completePriorities(prefix: string): Completion;
  completeSprintIds(prefix: string, project?: string): Completion;

  // Mutations: durable when the promise resolves.
  createIssue(input: CreateIssueInput): Promise<IssueMutation>;
  /** A move along the workflow; `resolution` only with done (default: done). */
  updateStatus(key: string, status: string, options?: { readonly resolution?: string }): Promise<IssueMutation>;
  /** null unassigns. */
  assignIssue(key: string, assignee: string | null): Promise<IssueMutation>;
  addComment(key: string, comment: { readonly body: string; readonly author?: string }): Promise<CommentMutation>;
  /** null moves the issue to the backlog. */
  moveToSprint(key: string, sprintId: string | null): Promise<IssueMutation>;
  /** Fields, assignee, sprint, status and a comment in one call (update.ts); change.description lists each part. */
  updateIssue(key: string, input: UpdateIssueInput): Promise<IssueMutation>;
  /** Adds (or with remove, takes away) a link; returns the `from` issue. */
  linkIssues(from: string, type: string, to: string, remove?: boolean): Promise<IssueMutation>;
  /** Applies updateStatus to each key in turn; see BulkResult. */
  bulkUpdateStatus(keys: readonly string[], status: string, options?: BulkOptions): Promise<BulkResult>;

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  /** Picks up other processes' appends now (the watcher does this on its own). */
  refresh(): void;
  /** Stops watching and closes the file. Further calls throw. */
  close(): void;
}

const DEFAULTS = { actor: 'assistant', lockTimeoutMs: 5_000, staleLockMs: 30_000, pollIntervalMs: 250 };

/** How often a write is planned again after losing its lock mid-write (see lock.ts) before giving up. */
const FENCED_WRITE_ATTEMPTS = 3;
/** appendRecord's "not taken": another writer appended first. */
const FENCED_OUT = Symbol('fenced out');

const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A cache key for a query's arguments; plain JSON would make NaN and Infinity look like null. */
const keyOf = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'number' && !Number.isFinite(inner) ? `${inner} (a number)` : inner,
  ) ?? 'undefined';

export async function openStore(options: OpenStoreOptions): Promise<TrackerStore> {
  const file = path.resolve(options.path);
  const now = options.now ?? (() => new Date());
  const log = options.log;
  const user = options.user === undefined ? null : parseHandle(options.user, 'user');
  const actor = parseHandle(options.actor ?? user ?? DEFAULTS.actor, 'actor');
  /** A query's answer depends on the time only through relative dates (-7d), to the minute at most here. */
  const queryAsOf = (query: SearchIssuesQuery): { context: ResolveContext; question: string } => {
    const at = now();
    const minute = query.query === undefined ? '' : ` ${at.toISOString().slice(0, 16)}`;
    return { context: { now: at, user }, question: `search ${keyOf(query)}${minute}` };
  };
  const lock: LockOptions = {
    dataFile: file,
    timeoutMs: options.lockTimeoutMs ?? DEFAULTS.lockTimeoutMs,
    staleMs: options.staleLockMs ?? DEFAULTS.staleLockMs,
    onStaleLock: (message) => log('warn', message),
  };
  const lockFile = `${file}.lock`;
  const locked = <T>(section: () => T): Promise<T> => withFileLock(lockFile, lock, section);

  await createIfMissing(file, locked, now, log);
  const opened = openJournal(file, log, options.maxFileBytes ?? LIMITS.maxJournalBytes);
  const journal = opened.journal;
  if (opened.tailBytes > 0) {
    try {
      await locked(() => catchUp(journal, { holdsLock: true, now, log }));
    } catch (error) {
      closeJournal(journal); // a store that failed to open keeps no file open
      throw error;
    }
  }

  const listeners = new Set<ChangeListener>();
  let failure: StoreFileError | null = null;
  /** Set when a failed write could not be undone: mutations are refused, queries go on. */
  let readOnly: StoreFileError | null = null;
  let closed = false;
  let stopWatching = (): void => {};

  /** Throws if the store can no longer be used; otherwise returns the state. */
  function usableState(): TrackerState {
    if (closed) throw storeFileError('closed', file, null, 'The store is closed.');
    if (failure !== null) throw failure;
    return journal.state;
  }

  function writableState(): TrackerState {
    const state = usableState();
    if (readOnly === null) return state;
    throw storeFileError(
      'read_only',
      file,
      null,
      `The store is read-only until restart: an earlier write failed and could not be undone, so it may be in the journal. Nothing was written. Restart the server, then check whether that change is there before making it again.`,
    );
  }

  /** Runs journal work; a StoreFileError makes the store unusable (or read-only) until reopened. */
  function guarded<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!isStoreFileError(error)) throw error;
      if (error.reason === 'read_only' && readOnly === null) {
        readOnly = error;
        log('error', error.message);
      } else if (error.reason !== 'read_only' && failure === null) {
        failure = error;
        log('error', error.message);
      }
      throw error;
    }
  }

  function emit(source: ChangeEvent['source'], changes: readonly Change[]): void {
    if (changes.length === 0) return;
    const event = mergeChanges(source, changes);
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log('error', `a change listener threw: ${(error as Error).message}`);
      }
    }
  }

  /** Picks up complete lines other processes appended. Never touches a tail. */
  function refresh(): void {
    usableState();
    const changes = guarded(() => catchUp(journal, { holdsLock: false, now, log }, ensureSameFile(journal)));
    emit('external', changes);
  }

  /** The watcher's refresh: errors are already logged once by guarded(). */
  function refreshInBackground(): void {
    if (closed || failure !== null) return;
    try {
      refresh();
    } catch (error) {
      if (!isStoreFileError(error)) log('error', `refresh failed: ${(error as Error).message}`);
    }
  }

  const derived = createDerivedCache();

  // Searches that yield run one after another, not in turns: 64 taking turns would all end
  // together, at the end of the last, and the engine reads no further request (a ping) while
  // 64 are in flight. One at a time, the first ends after its own scan and frees its place.
  let searching: Promise<unknown> = Promise.resolve();
  function oneSearchAtATime<T>(search: () => Promise<T>): Promise<T> {
    const turn = searching.then(search);
    searching = turn.catch(() => undefined);
    return turn;
  }

  // Queries read memory after a cheap check for appends by others: one stat() of the file.
  // The check is made once per synchronous run of code: nothing can be appended between two
  // reads in it that this process could know about (its own mutations, and another store's
  // in this process, all await), so they may as well share one look. A batch of pipelined
  // requests is dispatched in one run and costs one system call instead of one per read
  // (docs/performance.md).
  let looked = false;
  const lookAgain = (): void => {
    looked = false;
  };

  function read<T>(query: (state: TrackerState) => T): T {
    if (!looked) {
      refresh();
      looked = true;
      queueMicrotask(lookAgain);
    }
    return query(usableState());
  }

  /** The mutation pipeline described at the top of this file. */
  async function mutate(plan: (state: TrackerState, at: string) => RecordDraft | null): Promise<Change | null> {
    for (let attempt = 1; attempt <= FENCED_WRITE_ATTEMPTS; attempt++) {
      const local = await mutateOnce(plan);
      if (local !== FENCED_OUT) return local;
      log('warn', `${file}: another writer appended while this one was stalled past the stale limit; planning the change again.`);
    }
    throw domainError(
      'conflict',
      `Another process took the lock of ${file} in the middle of this write ${FENCED_WRITE_ATTEMPTS} times (this process stalled for longer than the stale limit each time). The change did not take effect; retry.`,
    );
  }

  async function mutateOnce(
    plan: (state: TrackerState, at: string) => RecordDraft | null,
  ): Promise<Change | null | typeof FENCED_OUT> {
    writableState();
    let external: Change[] = [];
    const local = await locked(() =>
      guarded(() => {
        const state = writableState(); // closed while we waited?
        external = catchUp(journal, { holdsLock: true, now, log }, ensureSameFile(journal));
        const at = now().toISOString();
        const draft = plan(state, at);
        return draft === null ? null : (appendRecord(journal, draft, at, log, external) ?? FENCED_OUT);
      }),
    ).finally(() => emit('external', external));
    if (local !== null && local !== FENCED_OUT) emit('local', [local]);
    return local;
  }

  async function mutateIssue(
    key: string,
    plan: (state: TrackerState, at: string) => RecordDraft | null,
    unchanged: (issue: Issue) => string,
  ): Promise<IssueMutation> {
    const change = await mutate(plan);
    const issue = requireIssue(journal.state, key);
    return { issue, change: change ?? noChange(unchanged(issue)) };
  }

  async function updateStatus(
    rawKey: string,
    rawStatus: string,
    options: { readonly resolution?: string } = {},
  ): Promise<IssueMutation> {
    const key = parseIssueKey(rawKey);
    const status = parseStatus(rawStatus);
    const resolution = options.resolution === undefined ? undefined : parseResolution(options.resolution);
    return mutateIssue(
      key,
      (state) => planStatusChange(state, key, status, resolution),
      (issue) => `${key} is already ${issue.status}; nothing changed.`,
    );
  }

  const store: TrackerStore = {
    path: file,

    getIssue: (key) => read((state) => getIssue(state, key)),
    getLinkKeys: (key) => read((state) => linkKeys(state, getIssue(state, key).key)),
    getIssueLinks: (key) => read((state) => issueLinks(state, key)),
    getReady: (project) =>
      read((state) =>
        derived.get(state, `ready ${keyOf(project)}`, () => readyKeys(state, project).map((key) => requireIssue(state, key))),
      ),
    getTransitions: (key) =>
      read((state) => {
        const issue = getIssue(state, key);
        return allowedMoves(issue.status, state.blockedFrom.get(issue.key));
      }),
    listIssues: (query) => read((state) => listIssues(state, query)),
    searchIssues: (query) =>
      read((state) => {
        const { context, question } = queryAsOf(query);
        return derived.get(state, question, () => searchIssues(state, query, context));
      }),
    searchIssuesYielding: (query) =>
      read((state) => {
        const { context, question } = queryAsOf(query);
        return derived.getAcrossTurns(state, question, () => oneSearchAtATime(() => searchIssuesYielding(state, query, context)));
      }),
    getProject: (key) => read((state) => requireProject(state, parseProjectKey(key))),
    listProjects: () => read((state) => sortedProjectKeys(state).map((key) => requireProject(state, key))),
    getSprint: (id) => read((state) => requireSprint(state, parseSprintId(id))),
    listSprints: (filter = {}) =>
      read((state) => {
        const project = filter.project === undefined ? undefined : requireProject(state, parseProjectKey(filter.project)).key;
        return sortedSprints(state, project).filter((s) => filter.state === undefined || s.state === filter.state);
      }),
    getProjectStats: (project) =>
      read((state) => derived.get(state, `project ${keyOf(project)}`, () => projectStats(state, project))),
    // days_remaining changes with the date, so the date is part of the question.
    getCurrentSprintStats: (project) =>
      read((state) => {
        const at = now();
        return derived.get(state, `current ${keyOf(project)} ${utcDay(at)}`, () => currentSprintStats(state, project, at));
      }),
    getSprintStats: (id) =>
      read((state) => {
        const at = now();
        return derived.get(state, `sprint ${keyOf(id)} ${utcDay(at)}`, () => sprintStats(state, id, at));
      }),
    completeIssueKeys: (prefix) => read((state) => completeIssueKeys(state, prefix)),
    completeProjectKeys: (prefix) => read((state) => completeProjectKeys(state, prefix)),
    completeAssignees: (prefix) => read((state) => completeAssignees(state, prefix)),
    completeStatuses: (prefix) => completeStatuses(prefix),
    completePriorities: (prefix) => completePriorities(prefix),
    completeSprintIds: (prefix, project) => read((state) => completeSprintIds(state, prefix, project)),

    async createIssue(input) {
      const request = parseCreateIssue(input, actor);
      const change = await mutate((state, at) => planCreateIssue(state, request, at));
      // A create always appends, so change is never null here.
      const key = change?.issues[0] ?? '';
      return { issue: requireIssue(journal.state, key), change: change ?? noChange('nothing created') };
    },

    updateStatus,

    assignIssue(rawKey, rawAssignee) {
      const key = parseIssueKey(rawKey);
      const assignee = rawAssignee === null ? null : parseHandle(rawAssignee, 'assignee');
      return mutateIssue(
        key,
        (state) => planAssignment(state, key, assignee),
        () => `${key} is already ${assignee === null ? 'unassigned' : `assigned to ${assignee}`}; nothing changed.`,
      );
    },

    async addComment(rawKey, comment) {
      const key = parseIssueKey(rawKey);
      const body = parseText(comment.body, 'Comment body', 1, LIMITS.commentMax);
      const author = comment.author === undefined ? actor : parseHandle(comment.author, 'author');
      let id = 0;
      const mutation = await mutateIssue(
        key,
        (state, at) => {
          const draft = planComment(state, key, author, body, at);
          id = draft.comment.id;
          return draft;
        },
        () => 'nothing changed',
      );
      // Comments are never removed, so the one just added stays at its place in the log.
      return { ...mutation, comment: journal.state.commentLogs.get(key)?.[id - 1] as Comment };
    },

    moveToSprint(rawKey, rawSprint) {
      const key = parseIssueKey(rawKey);
      const sprint = rawSprint === null ? null : parseSprintId(rawSprint);
      return mutateIssue(
        key,
        (state) => planSprintMove(state, key, sprint),
        () => `${key} is already in ${sprint ?? 'the backlog'}; nothing changed.`,
      );
    },

    async updateIssue(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const steps = updateSteps(key, input ?? {}, actor);
      // Every part is checked against the data before the first is written (see update.ts).
      read((state) => steps.forEach((step) => step(state, now().toISOString())));
      const done: Change[] = [];
      for (const step of steps) {
        try {
          const change = await mutate(step);
          if (change !== null) done.push(change);
        } catch (error) {
          throw isDomainError(error)
            ? partlyDone(
                done.map((c) => c.description),
                error,
              )
            : error;
        }
      }
      const issue = requireIssue(journal.state, key);
      if (done.length === 0) return { issue, change: noChange(`${key} already has those values; nothing changed.`) };
      const { issues, sprints, projects } = mergeChanges('local', done);
      const description = done.map((c) => c.description).join('; ');
      return { issue, change: { description, issues, sprints, projects, issueSetChanged: false } };
    },

    linkIssues(rawFrom, rawType, rawTo, remove = false) {
      const request = parseLinkRequest(rawFrom, rawType, rawTo, remove);
      return mutateIssue(
        request.from,
        (state) => planLink(state, request),
        () => `${request.from} ${remove ? 'has no such link' : 'is already linked so'}; nothing changed.`,
      );
    },

    bulkUpdateStatus: (keys, status, bulkOptions = {}) => bulkUpdateStatus(updateStatus, keys, status, bulkOptions),

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    refresh,

    close() {
      if (closed) return;
      closed = true;
      stopWatching();
      listeners.clear();
      closeJournal(journal);
    },
  };

  if (options.watch ?? true) {
    stopWatching = watchForAppends(file, refreshInBackground, {
      pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      log,
    });
  }
  return store;
}

/** First open of a missing file: create it with demo data, under the lock so two first opens agree. */
async function createIfMissing(
  file: string,
  locked: <T>(section: () => T) => Promise<T>,
  now: () => Date,
  log: Logger,
): Promise<void> {
  if (fs.existsSync(file)) return;
  refuseDanglingLink(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await locked(() => {
    if (fs.existsSync(file)) return; // another process created it while we waited
    refuseDanglingLink(file);
    createJournal(file, demoRecords(now()), now());
    log('info', `created ${file} with demo data (projects PROJ and WEB)`);
  });
}

/**
 * A data path that is a symbolic link to nothing (a drive not mounted, a target moved) is
 * refused: creating the file would replace the link, and when the target came back the
 * data would be split between two files (see data-path.ts).
 */
function refuseDanglingLink(file: string): void {
  let target: string;
  try {
    target = path.resolve(path.dirname(file), fs.readlinkSync(file));
  } catch {
    return; // not a symbolic link, or nothing there at all
  }
  throw storeFileError(
    'dangling_link',
    file,
    null,
    `The data path is a symbolic link to ${target}, which does not exist or cannot be reached. Nothing was created, so the link is intact. Reconnect or restore ${target} (a drive that is not mounted?), point --data (or MCP_TRACKER_DATA) at another file, or remove the link to start over with demo data.`,
  );
}

/**
 * One status change at a time, each durable on its own, so a cancelled or
 * failed run leaves every reported change applied and nothing half-done.
 * A bad status fails the whole call up front; a bad key fails only its item.
 */
async function bulkUpdateStatus(
  updateStatus: (key: string, status: string) => Promise<IssueMutation>,
  keys: readonly string[],
  rawStatus: string,
  options: BulkOptions,
): Promise<BulkResult> {
  const status = parseStatus(rawStatus);
  if (!Array.isArray(keys) || keys.length === 0)
    throw domainError('invalid_argument', 'keys must be a non-empty list of issue keys.');
  if (keys.length > BULK_MAX) {
    throw domainError('invalid_argument', `At most ${BULK_MAX} issues per bulk update; got ${keys.length}. Split the list.`);
  }
  const results: BulkOutcome[] = [];
  for (const key of keys) {
    // Each update settles in microtasks only; without a turn of the event loop between
    // them, a cancellation arriving on stdin could not be read until the whole run ended.
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted === true) break;
    results.push(await updateOne(updateStatus, key, status));
    options.onProgress?.(results.length, keys.length);
  }
  return {
    results,
    changed: results.filter((r) => r.ok && r.changed).length,
    failed: results.filter((r) => !r.ok).length,
    not_attempted: keys.slice(results.length),
    cancelled: results.length < keys.length,
  };
}

/** Domain errors become the item's outcome; anything else (the file is unusable) stops the run. */
async function updateOne(
  updateStatus: (key: string, status: string) => Promise<IssueMutation>,
  key: string,
  status: string,
): Promise<BulkOutcome> {
  try {
    const { change } = await updateStatus(key, status);
    return { key, ok: true, changed: change.issues.length > 0, description: change.description };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { key: String(key), ok: false, error: error.message };
  }
}

function noChange(description: string): Change {
  return { description, issues: [], sprints: [], projects: [], issueSetChanged: false };
}

function mergeChanges(source: ChangeEvent['source'], changes: readonly Change[]): ChangeEvent {
  const union = (pick: (c: Change) => readonly string[]): string[] => [...new Set(changes.flatMap(pick))];
  return {
    source,
    changes,
    issues: union((c) => c.issues),
    sprints: union((c) => c.sprints),
    projects: union((c) => c.projects),
    issueSetChanged: changes.some((c) => c.issueSetChanged),
  };
}
