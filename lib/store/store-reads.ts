// The store's reads: each a query of the newest state (StoreAccess.read), answers that take
// work kept until the data changes (derived.ts), searches one at a time, and a backend's own
// search (SQL) where it has one.
import { parseIssueKey, parseProjectKey, parseText } from './model/args.js';
import { sprintBurndown } from './changes/burndown.js';
import { createDerivedCache } from './queries/derived.js';
import { requireIssue, requireProject, requireSprint, sprintIdOf } from './state/lookup.js';
import { getIssue, listIssues, searchIssues, searchIssuesYielding } from './queries/queries.js';
import type { Page, SearchIssuesQuery } from './queries/search-request.js';
import type { ResolveContext } from './queries/jql/conditions.js';
import { LIMITS, type Issue } from './model/schema.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from './state/state.js';
import { currentSprintFor, currentSprintStats, projectStats, sprintStats } from './domain/stats.js';
import { allowedMoves } from './model/workflow.js';
import { workflowOf } from './state/workflows.js';
import { issueLinks, linkKeys } from './domain/links.js';
import { readyKeys } from './domain/ready.js';
import { projectFieldsOf } from './domain/fields.js';
import { issueHistory, parseHistoryLimit } from './changes/history.js';
import { attachmentInfo, completeAttachmentNames, listAttachments, requireAttachment } from './domain/attachments.js';
import { peopleReads } from './domain/people.js';
import type { StoreAccess, StoreReads } from './store-access.js';
import { occasionalReads } from './occasional-reads-loader.js';

/**
 * A backend's own answer to search_issues (PostgreSQL's: postgres/sql-search.ts), from the
 * state its names are resolved against; null leaves the search to the in-memory engine.
 */
export type SearchPushdown = (
  state: TrackerState,
  query: SearchIssuesQuery,
  context: ResolveContext,
) => Promise<Page<Issue> | null>;

const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

const completions = () => occasionalReads('a completion');

/** A cache key for a query's arguments; plain JSON would make NaN and Infinity look like null. */
const keyOf = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'number' && !Number.isFinite(inner) ? `${inner} (a number)` : inner,
  ) ?? 'undefined';

/** The store's reads over `access`, searching through `pushdown` when one is given. */
export function storeReads(access: StoreAccess, pushdown?: SearchPushdown): StoreReads {
  const { now, who, read } = access;
  /** A query's answer depends on the time only through relative dates (-7d), to the minute at most here. */
  const queryAsOf = (query: SearchIssuesQuery): { context: ResolveContext; question: string } => {
    const at = now();
    const { user } = who();
    // currentUser() makes the answer depend on who asks as well.
    const minute = query.query === undefined ? '' : ` ${at.toISOString().slice(0, 16)} ${user}`;
    return { context: { now: at, user }, question: `search ${keyOf(query)}${minute}` };
  };

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

  return {
    getIssue: (key) => read((state) => getIssue(state, key)),
    getIssueInTurns(key) {
      const reading = read((state) => state.issues.readInTurns(parseIssueKey(key)));
      return reading === null ? read((state) => getIssue(state, key)) : reading.then(() => read((state) => getIssue(state, key)));
    },
    getLinkKeys: (key) => read((state) => linkKeys(state, getIssue(state, key).key)),
    getIssueLinks: (key) => read((state) => issueLinks(state, key)),
    getReady: (project) =>
      read((state) =>
        derived.get(state, `ready ${keyOf(project)}`, () => readyKeys(state, project).map((key) => requireIssue(state, key))),
      ),
    getTransitions: (key) =>
      read((state) => {
        const issue = getIssue(state, key);
        return allowedMoves(workflowOf(state, issue.project), issue.status, state.blockedFrom.get(issue.key));
      }),
    getWorkflow: (project) => read((state) => workflowOf(state, requireProject(state, parseProjectKey(project)).key)),
    listIssues: (query) => read((state) => listIssues(state, query)),
    searchIssues: (query) =>
      read((state) => {
        const { context, question } = queryAsOf(query);
        return derived.get(state, question, () => searchIssues(state, query, context));
      }),
    searchIssuesYielding: (query) => (pushdown === undefined ? searchInMemory(query) : searchPushedDown(pushdown, query)),
    getProject: (key) => read((state) => requireProject(state, parseProjectKey(key))),
    getProjectFields: (key) => read((state) => projectFieldsOf(state, requireProject(state, parseProjectKey(key)).key)),
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
    getSprintReport: (id) =>
      read((state) =>
        derived.get(state, `report ${keyOf(id)}`, () => occasionalReads('a sprint report').sprintReport(state, id)),
      ),
    getVelocity: (project) =>
      read((state) =>
        derived.get(state, `velocity ${keyOf(project)}`, () =>
          occasionalReads("a project's velocity").projectVelocity(state, project),
        ),
      ),
    completeIssueKeys: (prefix) => read((state) => completions().completeIssueKeys(state, prefix)),
    completeProjectKeys: (prefix) => read((state) => completions().completeProjectKeys(state, prefix)),
    completeAssignees: (prefix) => read((state) => completions().completeAssignees(state, prefix)),
    completeStatuses: (prefix, project) => read((state) => completions().completeStatuses(state, prefix, project)),
    completePriorities: (prefix) => completions().completePriorities(prefix),
    completeSprintIds: (prefix, project) => read((state) => completions().completeSprintIds(state, prefix, project)),
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

    exportSnapshot: () =>
      read((state) => occasionalReads('an export, or a CSV import (it rehearses on a copy)').snapshotOf(state)),
    ...peopleReads(read),
  };
}
