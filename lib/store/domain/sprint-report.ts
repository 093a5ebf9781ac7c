// What a sprint held, from its history (burndown.ts), not from where its issues are now: an
// issue remembers only its current sprint, so once a close carries the unfinished work away,
// the issues alone would say a closed sprint held only what was done in it.
//
// Definitions:
// - The sprint starts at its sprint.started record; one created already active or closed (the
//   demo data, imports) at the end of its start_date.
// - committed: the issues it held when it started. added: those that joined after. removed:
//   those that left before the end (moved to another sprint or the backlog).
// - done: the issues in it at its end (its close, or now) that were done then. carried: those
//   a close moved on unfinished, with carried_to. Story points as they were then.
// - Velocity: the mean points done in the project's last VELOCITY_SPRINTS closed sprints that
//   held any work (a sprint that held nothing says nothing about the team's pace).
import { parseProjectKey, parseSprintId } from '../model/args.js';
import { requireProject, requireSprint } from '../state/lookup.js';
import type { Sprint } from '../model/schema.js';
import { sortedSprints, type ScopeEvent, type TrackerState } from '../state/state.js';
import { membersAt } from './sprint-members.js';

export interface PointsOf {
  readonly issues: readonly string[];
  readonly points: number;
}

export interface SprintReport {
  readonly sprint: string;
  readonly state: Sprint['state'];
  readonly committed: PointsOf;
  readonly added: PointsOf;
  readonly removed: PointsOf;
  readonly done: PointsOf;
  /** Unfinished at the end: carried away by the close, or still open in a sprint not closed. */
  readonly open: PointsOf;
  /** Where the close carried the unfinished issues; null for the backlog or a sprint not closed. */
  readonly carried_to: string | null;
}

export interface Velocity {
  /** Mean points done, rounded; null when no closed sprint of the project held work. */
  readonly points: number | null;
  readonly sprints: readonly { readonly sprint: string; readonly done_points: number }[];
}

export const VELOCITY_SPRINTS = 3;

export function sprintReport(state: TrackerState, sprintId: unknown): SprintReport {
  const sprint = requireSprint(state, parseSprintId(sprintId));
  const history = state.sprintHistory.get(sprint.id);
  const events = history?.events ?? [];
  const startedAt = history?.startedAt ?? `${sprint.start_date}T23:59:59.999Z`;
  const atStart = membersAt(events, startedAt);
  const atEnd = membersAt(events, null);
  const committed = [...atStart.values()].filter((e) => e.member);
  const everMember = new Set(events.filter((e) => e.member).map((e) => e.key));
  const added = [...everMember].filter((key) => atStart.get(key)?.member !== true);
  const ended = [...atEnd.values()];
  return {
    sprint: sprint.id,
    state: sprint.state,
    committed: pointsOf(committed),
    added: pointsOf(added.map((key) => atEnd.get(key) as ScopeEvent)),
    removed: pointsOf(ended.filter((e) => !e.member)),
    done: pointsOf(ended.filter((e) => e.member && !e.open)),
    open: pointsOf(ended.filter((e) => e.member && e.open)),
    carried_to: sprint.state === 'closed' ? carriedTo(state, sprint) : null,
  };
}

/** The mean done in the last closed sprints that held work. */
export function projectVelocity(state: TrackerState, projectKey: unknown): Velocity {
  const project = requireProject(state, parseProjectKey(projectKey));
  const closed = sortedSprints(state, project.key).filter((s) => s.state === 'closed');
  const worked = closed
    .map((s) => ({ sprint: s.id, report: sprintReport(state, s.id) }))
    .filter(({ report }) => report.done.issues.length + report.open.issues.length > 0)
    .slice(-VELOCITY_SPRINTS);
  const sprints = worked.map(({ sprint, report }) => ({ sprint, done_points: report.done.points }));
  if (sprints.length === 0) return { points: null, sprints };
  return { points: Math.round(sprints.reduce((sum, s) => sum + s.done_points, 0) / sprints.length), sprints };
}

function pointsOf(events: readonly ScopeEvent[]): PointsOf {
  const issues = events.map((e) => e.key).sort(byIssueNumber);
  return { issues, points: events.reduce((sum, e) => sum + e.points, 0) };
}

const byIssueNumber = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Where the close sent the unfinished issues: the sprint that noted them next, if any. */
function carriedTo(state: TrackerState, sprint: Sprint): string | null {
  const closedAt = state.sprintHistory.get(sprint.id)?.closedAt ?? null;
  if (closedAt === null) return null;
  for (const other of sortedSprints(state, sprint.project)) {
    if (other.id === sprint.id) continue;
    if (state.sprintHistory.get(other.id)?.events.some((e) => e.at === closedAt && e.member)) return other.id;
  }
  return null;
}
