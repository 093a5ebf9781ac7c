// Project and sprint statistics, computed from the issues on demand.
//
// Definitions (the rules a reader of the numbers needs):
// - Story points: unestimated issues (story_points null) count as 0.
// - progress_pct = floor(100 × done points / total points), 0 when the sprint
//   has no points. Floor, so 100 means every point is done (99.6 % shows 99).
// - days_remaining = whole calendar days (UTC) from today until end_date,
//   never negative: 5 when the sprint ends five days from now, 0 on its last
//   day and after it.
// - last_updated = the latest of: any issue in the sprint changing, an issue
//   entering or leaving the sprint, the sprint's creation.
// - Open means not done.
// - A closed sprint's counts are what it held when it closed (sprint-report.ts), the
//   unfinished issues it carried away included, with their status and points then.
import { parseProjectKey, parseSprintId } from '../model/args.js';
import { domainError } from '../model/errors.js';
import { describeSprints, requireProject, requireSprint } from '../state/lookup.js';
import { PRIORITIES, type Issue, type Priority, type Sprint, type Status } from '../model/schema.js';
import { doneStatusOf } from '../model/workflow.js';
import { sortedSprints, sprintNumber, type TrackerState } from '../state/state.js';
import { isDone, isOpen, workflowOf } from '../state/workflows.js';
import { membersAt } from './sprint-members.js';

export interface IssueCounts {
  readonly issue_count: number;
  /** Every status of the project's workflow (and any other an issue sits in), in the workflow's order. */
  readonly by_status: Readonly<Record<Status, number>>;
  readonly by_priority: Readonly<Record<Priority, number>>;
  readonly points_total: number;
  readonly points_done: number;
  /** Open issues with priority P0. */
  readonly p0_open: number;
  readonly unassigned_open: number;
}

export interface ProjectStats extends IssueCounts {
  readonly project: string;
  readonly name: string;
  /** The active sprint's id, or null. */
  readonly active_sprint: string | null;
}

export interface SprintStats extends IssueCounts {
  readonly sprint: string;
  readonly name: string;
  readonly project: string;
  readonly state: Sprint['state'];
  readonly goal: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly progress_pct: number;
  readonly days_remaining: number;
  readonly last_updated: string;
}

const DAY_MS = 86_400_000;

export function projectStats(state: TrackerState, projectKey: unknown): ProjectStats {
  const project = requireProject(state, parseProjectKey(projectKey));
  const issues = (state.issueKeysByProject.get(project.key) ?? []).map((key) => state.issues.get(key));
  return {
    project: project.key,
    name: project.name,
    active_sprint: activeSprintOf(state, project.key)?.id ?? null,
    ...countIssues(state, project.key, issues),
  };
}

/** Stats of the project's active sprint; a domain error when it has none. */
export function currentSprintStats(state: TrackerState, projectKey: unknown, now: Date): SprintStats {
  const project = requireProject(state, parseProjectKey(projectKey));
  const sprint = activeSprintOf(state, project.key);
  if (sprint === undefined) {
    const sprints = describeSprints(sortedSprints(state, project.key));
    throw domainError('not_found', `Project ${project.key} has no active sprint. Its sprints: ${sprints}.`);
  }
  return sprintStats(state, sprint.id, now);
}

export function sprintStats(state: TrackerState, sprintId: unknown, now: Date): SprintStats {
  const sprint = requireSprint(state, parseSprintId(sprintId));
  const issues = sprint.state === 'closed' ? issuesAtClose(state, sprint) : issuesNow(state, sprint);
  const counts = countIssues(state, sprint.project, issues);
  return {
    sprint: sprint.id,
    name: sprint.name,
    project: sprint.project,
    state: sprint.state,
    goal: sprint.goal,
    start_date: sprint.start_date,
    end_date: sprint.end_date,
    ...counts,
    progress_pct: counts.points_total === 0 ? 0 : Math.floor((100 * counts.points_done) / counts.points_total),
    days_remaining: daysUntil(sprint.end_date, now),
    last_updated: lastUpdated(state.sprintTouchedAt.get(sprint.id) ?? '', issues),
  };
}

/**
 * The sprint "current" means for `user`: while any sprint is active, one of them, never none.
 * The only active sprint; else the one holding most of the user's open work; else the active
 * sprint of a project the user leads; else that of the first project by key that has one.
 */
export function currentSprintFor(state: TrackerState, user: string | null): Sprint | undefined {
  const active = sortedSprints(state).filter((sprint) => sprint.state === 'active');
  if (active.length <= 1 || user === null) return active[0];
  const work = new Map<string, number>();
  for (const sprint of active) {
    for (const issue of issuesNow(state, sprint)) {
      if (issue !== undefined && issue.assignee === user && isOpen(state, issue.status))
        work.set(sprint.id, (work.get(sprint.id) ?? 0) + 1);
    }
  }
  const busiest = [...active].sort((a, b) => (work.get(b.id) ?? 0) - (work.get(a.id) ?? 0))[0];
  if (busiest !== undefined && (work.get(busiest.id) ?? 0) > 0) return busiest;
  return active.find((sprint) => state.projects.get(sprint.project)?.lead === user) ?? active[0];
}

function issuesNow(state: TrackerState, sprint: Sprint): Array<Issue | undefined> {
  return (state.issueKeysByProject.get(sprint.project) ?? [])
    .map((key) => state.issues.get(key))
    .filter((issue) => issue?.sprint === sprint.id);
}

/** The issues as the sprint's history last saw them in it: done or not, their points and status then. */
function issuesAtClose(state: TrackerState, sprint: Sprint): Array<Issue | undefined> {
  const last = membersAt(state.sprintHistory.get(sprint.id)?.events ?? [], null);
  return [...last.values()]
    .filter((event) => event.member)
    .map((event) => {
      const issue = state.issues.get(event.key);
      if (issue === undefined) return undefined;
      const closedAs = isDone(state, issue.status) ? issue.status : doneStatusOf(workflowOf(state, issue.project));
      const status = event.open ? (event.status ?? issue.status) : (closedAs ?? issue.status);
      return { ...issue, status, story_points: event.points };
    });
}

/** The active sprint; if data ever has two, the latest one counts. */
export function activeSprintOf(state: TrackerState, project: string): Sprint | undefined {
  return sortedSprints(state, project)
    .filter((sprint) => sprint.state === 'active')
    .sort((a, b) => sprintNumber(b.id) - sprintNumber(a.id))[0];
}

function countIssues(state: TrackerState, project: string, issues: ReadonlyArray<Issue | undefined>): IssueCounts {
  const byStatus = zeroCounts(workflowOf(state, project).statuses.map((status) => status.id));
  const byPriority = zeroCounts(PRIORITIES);
  let count = 0;
  let pointsTotal = 0;
  let pointsDone = 0;
  let p0Open = 0;
  let unassignedOpen = 0;
  for (const issue of issues) {
    if (issue === undefined) continue;
    const points = issue.story_points ?? 0;
    const open = isOpen(state, issue.status);
    count += 1;
    byStatus[issue.status] = (Object.hasOwn(byStatus, issue.status) ? (byStatus[issue.status] ?? 0) : 0) + 1;
    byPriority[issue.priority] += 1;
    pointsTotal += points;
    if (!open) pointsDone += points;
    if (open && issue.priority === 'P0') p0Open += 1;
    if (open && issue.assignee === null) unassignedOpen += 1;
  }
  return {
    issue_count: count,
    by_status: byStatus,
    by_priority: byPriority,
    points_total: pointsTotal,
    points_done: pointsDone,
    p0_open: p0Open,
    unassigned_open: unassignedOpen,
  };
}

function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

/** ISO timestamps of one format compare correctly as strings. */
function lastUpdated(touchedAt: string, issues: ReadonlyArray<Issue | undefined>): string {
  let latest = touchedAt;
  for (const issue of issues) if (issue !== undefined && issue.updated_at > latest) latest = issue.updated_at;
  return latest;
}

function daysUntil(endDate: string, now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const end = Date.parse(`${endDate}T00:00:00.000Z`);
  return Math.max(0, Math.round((end - today) / DAY_MS));
}
