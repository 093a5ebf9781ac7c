// A sprint's burndown: what was left to do at the end of each day, from the records.
//
// While records are applied (apply.ts), every change to what an issue adds to a sprint (it
// enters or leaves, its points change, it becomes done or open again) is noted against that
// sprint with the record's time, which is the issue's updated_at. An issue created in a
// sprint enters it at its created_at, and if it was created done, is done at its updated_at
// (the demo data and imports carry their own history that way). Once a sprint is closed its
// history stops: the close itself carries the unfinished issues away, and what happens to
// them after belongs to the sprint they went to.
//
// A day's point is the state at the end of that UTC day: remaining_points are the story
// points of the sprint's issues not done (unestimated count 0, as in stats.ts),
// remaining_issues their number, scope_points all the sprint's points, done or not.
// ideal_points falls in a straight line from the first day's scope to 0 on the last day.
// Days run from start_date to the earliest of end_date, today and the day it closed.
import { parseSprintId } from '../model/args.js';
import { requireSprint } from '../state/lookup.js';
import type { Issue } from '../model/schema.js';
import type { ScopeEvent, SprintHistory, TrackerState } from '../state/state.js';
import { isOpen } from '../state/workflows.js';

export interface BurndownPoint {
  readonly date: string;
  readonly remaining_points: number;
  readonly remaining_issues: number;
  readonly scope_points: number;
  readonly ideal_points: number;
}

export interface Burndown {
  readonly sprint: string;
  readonly name: string;
  readonly state: string;
  readonly start_date: string;
  readonly end_date: string;
  /** One per day so far, at most BURNDOWN_DAYS_MAX; none before the sprint starts. */
  readonly points: readonly BurndownPoint[];
}

/** Sprints from files written before the 92-day limit may be longer; their chart shows this many days. */
export const BURNDOWN_DAYS_MAX = 366;

const DAY_MS = 86_400_000;

/** Called for every new issue snapshot (apply.ts indexIssue): notes what changed for the burndown. */
export function noteScope(state: TrackerState, before: Issue | undefined, after: Issue): void {
  const points = after.story_points ?? 0;
  const open = isOpen(state, after.status);
  if (before === undefined) {
    if (after.sprint === null) return;
    push(state, after.sprint, { at: after.created_at, key: after.key, member: true, points, open: true });
    if (!open) push(state, after.sprint, { at: after.updated_at, key: after.key, member: true, points, open });
    return;
  }
  const unchanged = (before.story_points ?? 0) === points && isOpen(state, before.status) === open;
  if (before.sprint === after.sprint && unchanged) return;
  if (before.sprint !== null && before.sprint !== after.sprint) {
    push(state, before.sprint, { at: after.updated_at, key: after.key, member: false, points, open });
  }
  if (after.sprint !== null) push(state, after.sprint, { at: after.updated_at, key: after.key, member: true, points, open });
}

export function noteSprintStarted(state: TrackerState, id: string, at: string): void {
  historyOf(state, id).startedAt = at;
}

/**
 * Called when a sprint closes, before its unfinished issues are carried away: notes each with
 * its status then, so a report of the closed sprint says where the carried work stood.
 */
export function noteSprintClosed(state: TrackerState, id: string, at: string, unfinished: readonly Issue[]): void {
  for (const issue of unfinished) {
    const { key, status, story_points } = issue;
    push(state, id, { at, key, member: true, points: story_points ?? 0, open: true, status });
  }
  historyOf(state, id).closedAt = at;
}

export function sprintBurndown(state: TrackerState, sprintId: unknown, now: Date): Burndown {
  const sprint = requireSprint(state, parseSprintId(sprintId));
  const history = state.sprintHistory.get(sprint.id);
  const lastDay = [sprint.end_date, now.toISOString().slice(0, 10), history?.closedAt?.slice(0, 10) ?? sprint.end_date].sort()[0];
  const days = daysFrom(sprint.start_date, lastDay ?? sprint.end_date);
  const events = [...(history?.events ?? [])].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const length = daysFrom(sprint.start_date, sprint.end_date).length;
  const current = new Map<string, ScopeEvent>();
  const points: BurndownPoint[] = [];
  let next = 0;
  for (const [index, date] of days.entries()) {
    const endOfDay = new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS).toISOString();
    for (; next < events.length && (events[next]?.at ?? '') < endOfDay; next += 1) {
      const event = events[next] as ScopeEvent;
      current.set(event.key, event);
    }
    const day = tally(current);
    const scope = index === 0 ? day.scope_points : (points[0]?.scope_points ?? 0);
    const ideal = length <= 1 ? 0 : scope * (1 - index / (length - 1));
    points.push({ date, ...day, ideal_points: Math.round(ideal * 10) / 10 });
  }
  const { id, name, state: sprintState, start_date, end_date } = sprint;
  return { sprint: id, name, state: sprintState, start_date, end_date, points };
}

function tally(current: ReadonlyMap<string, ScopeEvent>): Omit<BurndownPoint, 'date' | 'ideal_points'> {
  let remainingPoints = 0;
  let remainingIssues = 0;
  let scope = 0;
  for (const event of current.values()) {
    if (!event.member) continue;
    scope += event.points;
    if (event.open) {
      remainingPoints += event.points;
      remainingIssues += 1;
    }
  }
  return { remaining_points: remainingPoints, remaining_issues: remainingIssues, scope_points: scope };
}

/** The calendar days from `first` to `last`, both included (none when last is earlier), at most BURNDOWN_DAYS_MAX. */
function daysFrom(first: string, last: string): string[] {
  const start = Date.parse(`${first}T00:00:00.000Z`);
  const count = Math.min(BURNDOWN_DAYS_MAX, Math.round((Date.parse(`${last}T00:00:00.000Z`) - start) / DAY_MS) + 1);
  return Array.from({ length: Math.max(0, count) }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

function historyOf(state: TrackerState, id: string): SprintHistory {
  let history = state.sprintHistory.get(id);
  if (history === undefined) state.sprintHistory.set(id, (history = { events: [], startedAt: null, closedAt: null }));
  return history;
}

function push(state: TrackerState, id: string, event: ScopeEvent): void {
  const history = historyOf(state, id);
  if (history.closedAt === null) history.events.push(Object.freeze(event));
}
