// The store: answers queries from memory and performs mutations through its backend (the
// journal file, or PostgreSQL: see record-log.ts), which does not change what it answers.
//
// A mutation plans against the newest state and appends one record (see the backend for how
// it keeps two writers apart); the promise resolves only after the record is durable. Queries
// first pick up what other processes appended that can be read at once (for the journal, one
// stat() of the path, shared by the reads of one synchronous run, when there is nothing), and
// the backend's watcher does the same in the background so change listeners hear about other
// processes' changes.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Change } from './state/change.js';
import { parseHandle, parseIssueKey, parseProjectKey, parseText } from './model/args.js';
import {
  parseCreateIssue,
  planAssignment,
  planComment,
  planCreateIssue,
  planSprintMove,
  planStatusChange,
} from './domain/commands.js';
import {
  completeAssignees,
  completeIssueKeys,
  completePriorities,
  completeProjectKeys,
  completeSprintIds,
  completeStatuses,
} from './domain/completions.js';
import { sprintBurndown } from './changes/burndown.js';
import { createDerivedCache } from './queries/derived.js';
import { domainError, isDomainError, storeFileError } from './model/errors.js';
import { openJournalLog } from './journal/journal-log.js';
import { requireIssue, requireProject, requireSprint, sprintIdOf } from './state/lookup.js';
import {
  getIssue,
  listIssues,
  searchIssues,
  searchIssuesYielding,
  type Page,
  type SearchIssuesQuery,
} from './queries/queries.js';
import type { ResolveContext } from './queries/jql/resolve.js';
import { LIMITS, type Comment, type Issue } from './model/schema.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from './state/state.js';
import { currentSprintFor, currentSprintStats, projectStats, sprintStats } from './domain/stats.js';
import { projectVelocity, sprintReport } from './domain/sprint-report.js';
import type { Plan, StoreBackend } from './backend/record-log.js';
import { allowedMoves, parseResolution, parseStatus } from './model/workflow.js';
import { issueLinks, linkKeys, parseLinkRequest, planLink } from './domain/links.js';
import { readyKeys } from './domain/ready.js';
import { sprintCommands } from './domain/sprints.js';
import { partlyDone, updateSteps } from './domain/update.js';
import { issueHistory, parseHistoryLimit } from './changes/history.js';
import {
  attachmentInfo,
  completeAttachmentNames,
  listAttachments,
  parseAttachment,
  planAttachment,
  requireAttachment,
} from './domain/attachments.js';
import {
  importUpdateSteps,
  parseTime,
  parseImportIssue,
  planImportIssue,
  planImportProject,
  planImportSprint,
} from './domain/import-commands.js';
import { snapshotOf } from './queries/snapshot.js';

import type {
  BulkOptions,
  BulkOutcome,
  BulkResult,
  ChangeEvent,
  ChangeListener,
  IssueMutation,
  OpenStoreOptions,
  TrackerStore,
} from './store-api.js';
import { BULK_MAX } from './store-api.js';

const DEFAULTS = { actor: 'assistant', lockTimeoutMs: 5_000, staleLockMs: 30_000, pollIntervalMs: 250 };

const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A cache key for a query's arguments; plain JSON would make NaN and Infinity look like null. */
const keyOf = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'number' && !Number.isFinite(inner) ? `${inner} (a number)` : inner,
  ) ?? 'undefined';

export async function openStore(options: OpenStoreOptions): Promise<TrackerStore> {
  const backend = await openJournalLog({
    path: options.path,
    log: options.log,
    now: options.now ?? (() => new Date()),
    lockTimeoutMs: options.lockTimeoutMs ?? DEFAULTS.lockTimeoutMs,
    staleLockMs: options.staleLockMs ?? DEFAULTS.staleLockMs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
    maxFileBytes: options.maxFileBytes,
    seed: options.seed ?? true,
  });
  return storeOn(backend, options);
}

/** What storeOn takes from OpenStoreOptions: everything but where the data lives. */
export type StoreOptions = Pick<OpenStoreOptions, 'log' | 'now' | 'actor' | 'user' | 'watch'>;

/**
 * A backend's own answer to search_issues (PostgreSQL's: postgres/sql-search.ts), from the
 * state its names are resolved against; null leaves the search to the in-memory engine.
 */
export type SearchPushdown = (
  state: TrackerState,
  query: SearchIssuesQuery,
  context: ResolveContext,
) => Promise<Page<Issue> | null>;

/** The tracker's store over any backend (record-log.ts), searching through `pushdown` when one is given. */
export function storeOn(backend: StoreBackend, options: StoreOptions, pushdown?: SearchPushdown): TrackerStore {
  const now = options.now ?? (() => new Date());
  const log = options.log;
  const user = options.user === undefined ? null : parseHandle(options.user, 'user');
  const own = { user, actor: parseHandle(options.actor ?? user ?? DEFAULTS.actor, 'actor') };
  // Who a call acts for, carried through its awaits by Node's AsyncLocalStorage rather than
  // passed down every method: many users share this one store over HTTP.
  const acting = new AsyncLocalStorage<{ readonly user: string | null; readonly actor: string }>();
  const who = () => acting.getStore() ?? own;
  /** A query's answer depends on the time only through relative dates (-7d), to the minute at most here. */
  const queryAsOf = (query: SearchIssuesQuery): { context: ResolveContext; question: string } => {
    const at = now();
    const { user } = who();
    // currentUser() makes the answer depend on who asks as well.
    const minute = query.query === undefined ? '' : ` ${at.toISOString().slice(0, 16)} ${user}`;
    return { context: { now: at, user }, question: `search ${keyOf(query)}${minute}` };
  };
  const listeners = new Set<ChangeListener>();
  let closed = false;
  let stopWatching = (): void => {};

  /** Throws if the store can no longer be used; otherwise returns the state. */
  function usableState(): TrackerState {
    if (closed) throw storeFileError('closed', backend.name, null, 'The store is closed.');
    return backend.state();
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

  /** Picks up what other processes appended that can be read at once. */
  function refresh(): void {
    usableState();
    emit('external', backend.catchUp());
  }

  const derived = createDerivedCache();

  // Searches that yield run one after another, not in turns: 64 taking turns would all end
  // together, at the end of the last, and the engine reads no further request (a ping) while
  // 64 are in flight. One at a time, the first ends after its own scan and frees its place.
  // With none under way, a search starts at once, and one that needs no pause is answered
  // at once; `searching` is the last search that paused, until it (and those queued after
  // it) ends.
  let searching: Promise<unknown> | null = null;
  function oneSearchAtATime<T>(search: () => T | Promise<T>): T | Promise<T> {
    const answer = searching === null ? search() : searching.then(search);
    if (!(answer instanceof Promise)) return answer;
    const turn: Promise<unknown> = answer.then(
      () => leave(turn),
      () => leave(turn),
    );
    searching = turn;
    return answer;
  }
  function leave(turn: Promise<unknown>): void {
    if (searching === turn) searching = null; // no search was queued after this one
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

  /** Every record this store writes says who wrote it (the history's "who"). */
  const signed = (plan: Plan): Plan => {
    const { actor } = who();
    return (state, at) => {
      const draft = plan(state, at);
      return draft === null ? null : { by: actor, ...draft };
    };
  };

  async function mutate(plan: Plan): Promise<Change | null> {
    usableState();
    const external: Change[] = [];
    const local = await backend.append(signed(plan), external).finally(() => emit('external', external));
    if (local !== null) emit('local', [local]);
    return local;
  }

  async function mutateIssue(key: string, plan: Plan, unchanged: (issue: Issue) => string): Promise<IssueMutation> {
    const change = await mutate(plan);
    const issue = requireIssue(backend.state(), key);
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

  /** A search answered from memory, through the cache; see searchIssuesYielding in queries.ts. */
  function searchInMemory(query: SearchIssuesQuery): Page<Issue> | Promise<Page<Issue>> {
    return read((state) => {
      const { context, question } = queryAsOf(query);
      return derived.getAcrossTurns(state, question, () => oneSearchAtATime(() => searchIssuesYielding(state, query, context)));
    });
  }

  /** A search answered by the backend (SQL) when it can, from memory when it cannot. */
  async function searchPushedDown(inBackend: SearchPushdown, query: SearchIssuesQuery): Promise<Page<Issue>> {
    const pushed = await read((state) => inBackend(state, query, queryAsOf(query).context));
    return pushed ?? searchInMemory(query);
  }

  const store: TrackerStore = {
    path: backend.name,

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
    searchIssuesYielding: (query) => (pushdown === undefined ? searchInMemory(query) : searchPushedDown(pushdown, query)),
    getProject: (key) => read((state) => requireProject(state, parseProjectKey(key))),
    listProjects: () => read((state) => sortedProjectKeys(state).map((key) => requireProject(state, key))),
    getSprint: (id) => read((state) => requireSprint(state, sprintIdOf(state, parseText(id, 'sprint', 1, LIMITS.nameMax)))),
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
    getSprintBurndown: (id) =>
      read((state) => {
        const at = now();
        return derived.get(state, `burndown ${keyOf(id)} ${utcDay(at)}`, () => sprintBurndown(state, id, at));
      }),
    getCurrentSprint: () =>
      read((state) => {
        const { user } = who();
        return derived.get(state, `current sprint of ${user}`, () => currentSprintFor(state, user) ?? null);
      }),
    getSprintReport: (id) => read((state) => derived.get(state, `report ${keyOf(id)}`, () => sprintReport(state, id))),
    getVelocity: (project) =>
      read((state) => derived.get(state, `velocity ${keyOf(project)}`, () => projectVelocity(state, project))),
    completeIssueKeys: (prefix) => read((state) => completeIssueKeys(state, prefix)),
    completeProjectKeys: (prefix) => read((state) => completeProjectKeys(state, prefix)),
    completeAssignees: (prefix) => read((state) => completeAssignees(state, prefix)),
    completeStatuses: (prefix) => completeStatuses(prefix),
    completePriorities: (prefix) => completePriorities(prefix),
    completeSprintIds: (prefix, project) => read((state) => completeSprintIds(state, prefix, project)),
    getHistory: (key, limit) => {
      const shown = parseHistoryLimit(limit);
      return read((state) => issueHistory(state, parseIssueKey(key), shown));
    },
    getAttachments: (key) => read((state) => listAttachments(state, parseIssueKey(key))),
    getAttachment: (key, name) =>
      read((state) => {
        const found = requireAttachment(state, parseIssueKey(key), String(name));
        return { ...attachmentInfo(found), content: found.content };
      }),
    completeAttachmentNames: (key, prefix) =>
      read((state) => {
        try {
          return completeAttachmentNames(state, key === '' ? null : parseIssueKey(key), prefix);
        } catch {
          return { values: [], total: 0, hasMore: false };
        }
      }),

    async createIssue(input) {
      const request = parseCreateIssue(input, who().actor);
      const change = await mutate((state, at) => planCreateIssue(state, request, at));
      // A create always appends, so change is never null here.
      const key = change?.issues[0] ?? '';
      return { issue: requireIssue(backend.state(), key), change: change ?? noChange('nothing created') };
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
      const author = comment.author === undefined ? who().actor : parseHandle(comment.author, 'author');
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
      return { ...mutation, comment: backend.state().issues.entry(key)?.comments[id - 1] as Comment };
    },

    async addAttachment(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const request = parseAttachment(input);
      const author = input.author === undefined ? who().actor : parseHandle(input.author, 'author');
      const mutation = await mutateIssue(
        key,
        (state, at) => planAttachment(state, key, request, author, at),
        () => 'nothing changed',
      );
      const state = backend.state();
      // Names are unique per issue and attachments never removed: this one is ours.
      const added = requireAttachment(state, key, request.name);
      return { ...mutation, attachment: attachmentInfo(added), count: state.attachments.get(key)?.length ?? 0 };
    },

    moveToSprint(rawKey, rawSprint) {
      const key = parseIssueKey(rawKey);
      const sprint = rawSprint === null ? null : parseText(rawSprint, 'sprint', 1, LIMITS.nameMax);
      const project = key.slice(0, key.lastIndexOf('-'));
      return mutateIssue(
        key,
        (state) => planSprintMove(state, key, sprint === null ? null : sprintIdOf(state, sprint, project)),
        () => `${key} is already in ${sprint ?? 'the backlog'}; nothing changed.`,
      );
    },

    async updateIssue(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const steps = updateSteps(key, input ?? {}, who().actor);
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
      const issue = requireIssue(backend.state(), key);
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

    async importProject(input) {
      return (await mutate((state) => planImportProject(state, input))) ?? noChange('nothing imported');
    },

    async importSprint(input) {
      const change = await mutate((state) => planImportSprint(state, input));
      return requireSprint(backend.state(), change?.sprints[0] ?? '');
    },

    async importIssue(input) {
      const request = parseImportIssue(input, who().actor, now().toISOString());
      const change = await mutate((state) => planImportIssue(state, request));
      return requireIssue(backend.state(), change?.issues[0] ?? '');
    },

    async importUpdate(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const steps = importUpdateSteps(key, parseImportIssue(input, who().actor, now().toISOString()));
      read((state) => steps.forEach((step) => step(state, now().toISOString())));
      const changes: string[] = [];
      for (const step of steps) {
        const change = await mutate(step);
        if (change !== null) changes.push(change.description);
      }
      return { issue: requireIssue(backend.state(), key), changes };
    },

    async importAttachment(rawKey, attachment) {
      const key = parseIssueKey(rawKey);
      const { name, mime_type: mimeType, content } = attachment;
      const request = parseAttachment({ name, mimeType, content });
      const author = parseHandle(attachment.author, 'author');
      const at = parseTime(attachment.created_at, 'created_at');
      await mutate((state) => planAttachment(state, key, request, author, at));
      return attachmentInfo(requireAttachment(backend.state(), key, request.name));
    },

    exportSnapshot: () => read(snapshotOf),

    bulkUpdateStatus: (keys, status, bulkOptions = {}) => bulkUpdateStatus(updateStatus, keys, status, bulkOptions),

    ...sprintCommands(mutate, () => backend.state()),

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    refresh,

    actingAs(name, call) {
      const user = parseHandle(name, 'user');
      return acting.run({ user, actor: user }, call);
    },

    close() {
      if (closed) return;
      closed = true;
      stopWatching();
      listeners.clear();
      backend.close();
    },
  };

  if (options.watch ?? true) stopWatching = backend.watch((changes) => emit('external', changes));
  return store;
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
