// Completing partial input: issue keys, project keys, people, statuses, sprints.
//
// Matching is a case-insensitive prefix match. Ranking: an exact match first,
// then by the candidate's weight (e.g. how many issues a person is assigned),
// then shorter first, then alphabetical; capped at 100 values, with the total
// number of matches so a caller can say there are more.
import { PRIORITIES } from '../model/schema.js';
import { DEFAULT_WORKFLOW, type WorkflowStatus } from '../model/workflow.js';
import { workflowOf } from '../state/workflows.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from '../state/state.js';

export const COMPLETION_CAP = 100;

export interface Completion {
  readonly values: readonly string[];
  readonly total: number;
  readonly hasMore: boolean;
}

interface Candidate {
  readonly value: string;
  /** Text the prefix is matched against, lower-cased; defaults to the value. */
  readonly match?: readonly string[];
  readonly weight?: number;
}

export function completeIssueKeys(state: TrackerState, prefix: unknown): Completion {
  const wanted = normalizePrefix(prefix).toUpperCase();
  // Within a project, keys are in number order, which is already "shorter
  // first, then alphabetical": the first COMPLETION_CAP matches of each
  // project are the only ones that can rank, so 100,000 keys need no sort.
  const ranked: string[] = [];
  let total = 0;
  for (const project of sortedProjectKeys(state)) {
    let taken = 0;
    for (const key of state.issueKeysByProject.get(project) ?? []) {
      if (!key.startsWith(wanted)) continue;
      total += 1;
      if (taken < COMPLETION_CAP) ranked.push(key);
      taken += 1;
    }
  }
  ranked.sort(byLengthThenText);
  return completion(ranked, total);
}

export function completeProjectKeys(state: TrackerState, prefix: unknown): Completion {
  const candidates = [...state.projects.values()].map((project) => ({
    value: project.key,
    match: [project.key.toLowerCase(), project.name.toLowerCase()],
  }));
  return rankByPrefix(candidates, prefix);
}

/** People ranked by how many issues they are assigned. */
export function completeAssignees(state: TrackerState, prefix: unknown): Completion {
  const candidates = [...state.people].map((person) => ({ value: person, weight: state.assignmentCounts.get(person) ?? 0 }));
  return rankByPrefix(candidates, prefix);
}

/**
 * Statuses by id or name: a chosen project's own (its workflow, the default's when it has none),
 * else every status a workflow names.
 */
export function completeStatuses(state: TrackerState, prefix: unknown, project?: string): Completion {
  const chosen = project?.trim().toUpperCase() ?? '';
  const workflows = state.projects.has(chosen) ? [workflowOf(state, chosen)] : [DEFAULT_WORKFLOW, ...state.workflows.values()];
  const statuses = new Map<string, WorkflowStatus>();
  for (const status of workflows.flatMap((workflow) => workflow.statuses))
    if (!statuses.has(status.id)) statuses.set(status.id, status);
  return rankByPrefix(
    [...statuses.values()].map((status) => ({ value: status.id, match: [status.id, status.name.toLowerCase()] })),
    prefix,
  );
}

export function completePriorities(prefix: unknown): Completion {
  return rankByPrefix(
    PRIORITIES.map((value) => ({ value })),
    prefix,
  );
}

/** Sprint ids, optionally of one project; active and future sprints rank before closed ones. */
export function completeSprintIds(state: TrackerState, prefix: unknown, project?: string): Completion {
  const candidates = sortedSprints(state, project).map((sprint) => ({
    value: sprint.id,
    match: [sprint.id.toLowerCase(), sprint.name.toLowerCase()],
    weight: sprint.state === 'closed' ? 0 : 1,
  }));
  return rankByPrefix(candidates, prefix);
}

function rankByPrefix(candidates: readonly Candidate[], prefix: unknown): Completion {
  const wanted = normalizePrefix(prefix).toLowerCase();
  const matches = candidates.filter((c) => (c.match ?? [c.value.toLowerCase()]).some((m) => m.startsWith(wanted)));
  const isExact = (c: Candidate): number => (c.value.toLowerCase() === wanted ? 1 : 0);
  matches.sort((a, b) => isExact(b) - isExact(a) || (b.weight ?? 0) - (a.weight ?? 0) || byLengthThenText(a.value, b.value));
  return completion(
    matches.map((c) => c.value),
    matches.length,
  );
}

/** Non-strings complete as if nothing was typed; absurdly long input is cut. */
function normalizePrefix(prefix: unknown): string {
  return typeof prefix === 'string' ? prefix.trim().slice(0, 100) : '';
}

function byLengthThenText(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function completion(ranked: readonly string[], total: number): Completion {
  const values = ranked.slice(0, COMPLETION_CAP);
  return { values, total, hasMore: total > values.length };
}
