// Sprint commands: create, start, close (carrying the unfinished work), set the goal.
//
// Rules (each refusal says how to fix the call):
// - A sprint is created future, with a name, a start and an end day (UTC) and a goal, as
//   `PROJ-S<n+1>` where n is the project's highest sprint number. A project holds at most
//   LIMITS.sprintsPerProjectMax sprints, and one lasts at most LIMITS.sprintDaysMax days.
// - Only a future sprint starts, and only while no other sprint of its project is active.
// - Only the active sprint closes. Its unfinished issues (not done) move in the same record
//   to a future sprint of the project, or to the backlog: the caller says which, since
//   either may be right. With nothing unfinished the choice may be left out.
// - A closed sprint is history: its goal no longer changes.
import type { Change } from '../state/change.js';
import { parseProjectKey, parseText, quote } from '../model/args.js';
import { domainError } from '../model/errors.js';
import { describeSprints, requireProject, requireSprint, sprintIdOf } from '../state/lookup.js';
import { DATE_PATTERN, LIMITS, type Sprint } from '../model/schema.js';
import type { RecordDraft } from '../model/record-schema.js';
import type { Plan } from '../backend/record-log.js';
import { sortedSprints, sprintNumber, type TrackerState } from '../state/state.js';
import { isOpen } from '../state/workflows.js';
import { activeSprintOf } from './stats.js';

export const SPRINT_LIMITS = {
  sprintsPerProjectMax: 1_000,
  /** From the first day to the last, both counted: it bounds a burndown's points too. */
  sprintDaysMax: 92,
  /** Unfinished issues one close may carry: the sprint.closed record lists them all. */
  carryMax: 10_000,
} as const;

const DAY_MS = 86_400_000;

export interface CreateSprintInput {
  readonly project?: unknown;
  readonly name?: unknown;
  readonly start_date?: unknown;
  readonly end_date?: unknown;
  readonly goal?: unknown;
}

export interface CreateSprintRequest {
  readonly project: string;
  readonly name: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly goal: string;
}

/** Format checks only, before the lock. */
export function parseCreateSprint(input: CreateSprintInput): CreateSprintRequest {
  const start = parseDay(input.start_date, 'start_date');
  const end = parseDay(input.end_date, 'end_date');
  const days = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
  if (days < 1) invalid(`end_date ${end} is before start_date ${start}.`);
  if (days > SPRINT_LIMITS.sprintDaysMax) {
    invalid(`A sprint lasts at most ${SPRINT_LIMITS.sprintDaysMax} days; ${start} to ${end} is ${days}.`);
  }
  return {
    project: parseProjectKey(input.project),
    name: parseText(input.name, 'Sprint name', 1, LIMITS.nameMax),
    start_date: start,
    end_date: end,
    goal: parseGoal(input.goal ?? ''),
  };
}

export const parseGoal = (value: unknown): string => parseText(value, 'Sprint goal', 0, LIMITS.goalMax);

export function planCreateSprint(state: TrackerState, request: CreateSprintRequest): RecordDraft {
  requireProject(state, request.project);
  const sprints = sortedSprints(state, request.project);
  if (sprints.length >= SPRINT_LIMITS.sprintsPerProjectMax) {
    throw domainError(
      'conflict',
      `Project ${request.project} already has ${sprints.length} sprints, the most one project may have (${SPRINT_LIMITS.sprintsPerProjectMax}).`,
    );
  }
  const number = Math.max(0, ...sprints.map((s) => sprintNumber(s.id))) + 1;
  const sprint: Sprint = { id: `${request.project}-S${number}`, ...request, state: 'future' };
  return { type: 'sprint.created', sprint };
}

export function planStartSprint(state: TrackerState, id: string): RecordDraft | null {
  const sprint = requireSprint(state, id);
  if (sprint.state === 'active') return null;
  if (sprint.state === 'closed') throw domainError('conflict', `Sprint ${id} (${sprint.name}) is closed; it cannot start again.`);
  const active = activeSprintOf(state, sprint.project);
  if (active !== undefined) {
    throw domainError(
      'conflict',
      `Sprint ${active.id} (${active.name}) is already active in ${sprint.project}; one sprint per project runs at a time. Close ${active.id} first.`,
    );
  }
  return { type: 'sprint.started', id };
}

/** The unfinished issues of the sprint, in key order. */
export function unfinishedIssues(state: TrackerState, sprint: Sprint): string[] {
  return (state.issueKeysByProject.get(sprint.project) ?? []).filter((key) => {
    const issue = state.issues.get(key);
    return issue !== undefined && issue.sprint === sprint.id && isOpen(state, issue.status);
  });
}

/** `carryTo`: a sprint id, null for the backlog, undefined when the caller did not say. */
export function planCloseSprint(state: TrackerState, id: string, carryTo: string | null | undefined): RecordDraft {
  const sprint = requireSprint(state, id);
  if (sprint.state !== 'active') {
    throw domainError('conflict', `Sprint ${id} (${sprint.name}) is ${sprint.state}; only the active sprint closes.`);
  }
  const carried = unfinishedIssues(state, sprint);
  const future = sortedSprints(state, sprint.project).filter((s) => s.state === 'future');
  const choices = `carry_to: a future sprint of ${sprint.project} (${describeSprints(future)}) or null for the backlog`;
  if (carryTo === undefined && carried.length > 0) {
    invalid(`${id} has ${carried.length} unfinished issues (${listed(carried)}); say where they go: ${choices}.`);
  }
  if (carried.length > SPRINT_LIMITS.carryMax) {
    throw domainError(
      'conflict',
      `${id} has ${carried.length} unfinished issues; one close carries at most ${SPRINT_LIMITS.carryMax}. Move some first.`,
    );
  }
  const target = carryTo ?? null;
  if (target !== null && !future.some((s) => s.id === target)) {
    invalid(`Issues can be carried only to a future sprint of ${sprint.project}, not ${target}; use ${choices}.`);
  }
  return { type: 'sprint.closed', id, carried, carried_to: target };
}

export function planSprintGoal(state: TrackerState, id: string, goal: string): RecordDraft | null {
  const sprint = requireSprint(state, id);
  if (sprint.goal === goal) return null;
  if (sprint.state === 'closed') throw domainError('conflict', `Sprint ${id} (${sprint.name}) is closed; its goal stays.`);
  return { type: 'sprint.goal_changed', id, from: sprint.goal, to: goal };
}

/** carry_to as a caller spells it: a sprint's id or name (in `project`), or null / "backlog" for the backlog. */
function parseCarryTo(state: TrackerState, value: unknown, project: string): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || (typeof value === 'string' && value.trim().toLowerCase() === 'backlog')) return null;
  return sprintIdOf(state, parseText(value, 'carry_to', 1, LIMITS.nameMax), project);
}

function parseDay(value: unknown, field: string): string {
  const day = typeof value === 'string' ? value.trim() : '';
  // Date.parse rolls 2025-02-30 over to March: only a day that prints back as itself exists.
  const time = DATE_PATTERN.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : NaN;
  const valid = Number.isFinite(time) && new Date(time).toISOString().startsWith(day);
  if (!valid) invalid(`${field} must be a calendar day such as 2025-06-01, got ${quote(value)}.`);
  return day;
}

function listed(keys: readonly string[]): string {
  return keys.length > 10 ? `${keys.slice(0, 10).join(', ')} and ${keys.length - 10} more` : keys.join(', ');
}

function invalid(message: string): never {
  throw domainError('invalid_argument', message);
}

/** The result of a sprint command: the sprint after it, and what moved. */
export interface SprintMutation {
  readonly sprint: Sprint;
  readonly change: Change;
  /** The unfinished issues a close moved (empty for the other commands). */
  readonly carried: readonly string[];
  /** Where they went: a sprint id, or null for the backlog. */
  readonly carried_to: string | null;
}

export interface SprintCommands {
  createSprint(input: CreateSprintInput): Promise<SprintMutation>;
  /** A no-op on the active sprint. `id`, here and below: the sprint's id or its name ("Sprint 42"). */
  startSprint(id: string): Promise<SprintMutation>;
  /** carryTo: a future sprint's id or name, or null for the backlog; required when issues are unfinished. */
  closeSprint(id: string, carryTo?: string | null): Promise<SprintMutation>;
  setSprintGoal(id: string, goal: string): Promise<SprintMutation>;
}

/** The commands over the store's `mutate` (plan, append, tell listeners). */
export function sprintCommands(mutate: (plan: Plan) => Promise<Change | null>, state: () => TrackerState): SprintCommands {
  /** `id` is the sprint's id, or null for the one the plan creates. */
  async function run(id: string | null, plan: Plan, unchanged: string): Promise<SprintMutation> {
    let planned: RecordDraft | null = null;
    const change = await mutate((current, at) => (planned = plan(current, at)));
    // TypeScript cannot see that mutate ran the plan: say what `planned` may hold.
    const record = planned as RecordDraft | null;
    const closed = record?.type === 'sprint.closed' ? record : null;
    return {
      sprint: requireSprint(state(), record?.type === 'sprint.created' ? record.sprint.id : (id ?? '')),
      change: change ?? { description: unchanged, issues: [], sprints: [], projects: [], issueSetChanged: false },
      carried: closed?.carried ?? [],
      carried_to: closed?.carried_to ?? null,
    };
  }
  /** A sprint by its id or, as users say it, its name ("Sprint 42": lookup.ts sprintIdOf). Sprints are never renamed. */
  const sprintNamed = (raw: unknown): string => sprintIdOf(state(), parseText(raw, 'sprint', 1, LIMITS.nameMax));
  return {
    createSprint(input) {
      const request = parseCreateSprint(input);
      return run(null, (current) => planCreateSprint(current, request), 'nothing created');
    },
    startSprint(rawId) {
      const id = sprintNamed(rawId);
      return run(id, (current) => planStartSprint(current, id), `${id} is already active; nothing changed.`);
    },
    closeSprint(rawId, rawCarryTo) {
      const id = sprintNamed(rawId);
      const carryTo = parseCarryTo(state(), rawCarryTo, id.slice(0, id.lastIndexOf('-')));
      return run(id, (current) => planCloseSprint(current, id, carryTo), 'nothing changed');
    },
    setSprintGoal(rawId, rawGoal) {
      const id = sprintNamed(rawId);
      const goal = parseGoal(rawGoal);
      return run(id, (current) => planSprintGoal(current, id, goal), `${id} already has that goal; nothing changed.`);
    },
  };
}
