// Workflows: which status an issue may move to from the one it has, and the one forgiving
// parser of status names that tools, queries and imports all use.
//
// Each project may have a workflow of its own (set with `mcp-tracker workflow`, kept in the
// journal as a project.workflow_set record); a project without one has DEFAULT_WORKFLOW:
//
//   todo → in_progress → in_review → done → reopened → in_progress
//                   in_review → in_progress (changes asked for in review)
//   any open status → blocked → the status it came from, or todo / in_progress
//   any open status → done, with a resolution (closing: a duplicate, won't do, ...)
//
// A workflow is its statuses (each with one of Jira's three categories: to do, in progress,
// done; the first status is where new issues start), the moves between them, the resolutions
// an issue may be done for, and whether an open issue may be closed from wherever it is with a
// resolution (close_from_any_open). "Open" is every category but done. A status named
// `blocked` remembers where the issue came from and may go back there, in every workflow.
//
// The rule applies to new changes only (commands.ts plans them). A journal keeps what
// happened: a file written before the rule, or imported from elsewhere, may hold a move the
// rule refuses today, and it still opens (apply.ts checks only that `from` is the current
// status). Setting the status an issue already has is not a move: nothing is written.
import { domainError } from './errors.js';
import { quote } from './args.js';
import { LIMITS, RESOLUTIONS, STATUSES, WORKFLOW_ID_PATTERN, type Resolution, type Status } from './schema.js';
import type { StatusCategory, Workflow, WorkflowStatus } from './workflow-schema.js';

export type { StatusCategory, Workflow, WorkflowStatus } from './workflow-schema.js';

export const STATUS_CATEGORIES: readonly StatusCategory[] = ['todo', 'inprogress', 'done'];

/** A category as people write it, and as a workflow file takes it: "to do", "in progress", "done". */
export function categoryWord(category: StatusCategory): string {
  return category === 'inprogress' ? 'in progress' : category === 'todo' ? 'to do' : 'done';
}

/** The workflow of every project without one of its own: the tracker's from the start. */
export const DEFAULT_WORKFLOW: Workflow = deepFreeze({
  statuses: [
    { id: 'todo', name: 'To Do', category: 'todo' },
    { id: 'in_progress', name: 'In Progress', category: 'inprogress' },
    { id: 'in_review', name: 'In Review', category: 'inprogress' },
    { id: 'blocked', name: 'Blocked', category: 'inprogress' },
    { id: 'done', name: 'Done', category: 'done' },
    { id: 'reopened', name: 'Reopened', category: 'todo' },
  ],
  transitions: {
    todo: ['in_progress', 'blocked'],
    in_progress: ['in_review', 'blocked'],
    in_review: ['done', 'in_progress', 'blocked'],
    blocked: ['todo', 'in_progress'],
    done: ['reopened'],
    reopened: ['in_progress', 'blocked'],
  },
  resolutions: [...RESOLUTIONS],
  close_from_any_open: true,
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) Object.values(value).forEach(deepFreeze);
  return Object.freeze(value);
}

/** Statuses that count as work still to do in the default workflow: everything but done. */
export const OPEN_STATUSES: readonly Status[] = STATUSES.filter((status) => status !== 'done');

export function workflowStatus(workflow: Workflow, id: Status): WorkflowStatus | undefined {
  return workflow.statuses.find((status) => status.id === id);
}

/** A status's category in this workflow; one it does not name is to do (it was never finished). */
export function categoryIn(workflow: Workflow, status: Status): StatusCategory {
  return workflowStatus(workflow, status)?.category ?? 'todo';
}

/** The done status a close goes to when the caller names none: the first done status. */
export function doneStatusOf(workflow: Workflow): Status | undefined {
  return workflow.statuses.find((status) => status.category === 'done')?.id;
}

/**
 * Where an issue may go from `status`. A blocked issue may also go back to the status it
 * was blocked from (`blockedFrom`, when the journal saw the move into blocked).
 */
export function allowedMoves(workflow: Workflow, status: Status, blockedFrom?: Status): Status[] {
  const moves = [...movesFrom(workflow, status)];
  if (status === 'blocked' && blockedFrom !== undefined && !moves.includes(blockedFrom) && workflowStatus(workflow, blockedFrom))
    moves.push(blockedFrom);
  return moves;
}

/**
 * Refuses a move the workflow does not allow, naming the ones it does. Closing is the one move
 * from anywhere, where the workflow allows it: an open issue goes straight to a done status when
 * a resolution says why (a duplicate found in todo is closed in one move, and no time in
 * progress is recorded that never was).
 */
export function requireMove(
  workflow: Workflow,
  key: string,
  from: Status,
  to: Status,
  blockedFrom?: Status,
  resolution?: Resolution,
): void {
  const allowed = allowedMoves(workflow, from, blockedFrom);
  if (allowed.includes(to)) return;
  const closing = resolution !== undefined && categoryIn(workflow, to) === 'done' && categoryIn(workflow, from) !== 'done';
  if (closing && workflow.close_from_any_open) return;
  throw domainError(
    'conflict',
    `${key} cannot move from ${from} to ${to}. From ${from} it can move to: ${allowed.join(', ') || 'nowhere'}. ` +
      `The workflow: ${describeWorkflow(workflow)}`,
  );
}

/**
 * The moves the workflow lists from `status`. Own properties only: `constructor` is a valid status
 * id, and every object inherits a property of that name.
 */
function movesFrom(workflow: Workflow, status: Status): readonly Status[] {
  return Object.hasOwn(workflow.transitions, status) ? (workflow.transitions[status] ?? []) : [];
}

/** Where a change of workflow's mapping (removed → kept) puts an issue in `status`: its own entries only. */
export function mappedStatus(mapping: Readonly<Record<Status, Status>> | undefined, status: Status): Status {
  return mapping !== undefined && Object.hasOwn(mapping, status) ? (mapping[status] ?? status) : status;
}

/** The moves of a workflow in one line, for refusals and descriptions. */
export function describeWorkflow(workflow: Workflow): string {
  const moves = workflow.statuses.map((status) => `${status.id} → ${movesFrom(workflow, status.id).join('|') || '∅'}`);
  const closing = workflow.close_from_any_open
    ? `; any open status closes to a done status with a resolution (${workflow.resolutions.join(', ')})`
    : `; resolutions: ${workflow.resolutions.join(', ')}`;
  return `${moves.join(', ')}${closing}.`;
}

/**
 * Other names people and Jira exports use for the default statuses. Jira's classic workflow
 * calls a new issue Open and a finished one Resolved or Closed. Each applies in a workflow that
 * has the status it names.
 */
const ALIASES: ReadonlyMap<string, Status> = new Map<string, Status>([
  ['open', 'todo'],
  ['new', 'todo'],
  ['backlog', 'todo'],
  ['started', 'in_progress'],
  ['review', 'in_review'],
  ['resolved', 'done'],
  ['closed', 'done'],
]);

/** A name with case, spaces, dashes, underscores and apostrophes taken out: "In-Progress" → inprogress. */
export const squeeze = (value: string): string => value.toLowerCase().replace(/[\s_'-]+/g, '');

/**
 * The one status parser: in the default workflow "In Progress", "in-progress", "IN_PROGRESS"
 * and "inprogress" are all in_progress, "To Do" is todo, "Closed" is done; in a project's own
 * workflow a status's id or name, in any case. Anything else is refused, never guessed.
 */
export function parseStatus(value: unknown, workflow: Workflow = DEFAULT_WORKFLOW): Status {
  const status = typeof value === 'string' ? findStatus(workflow, value) : undefined;
  if (status === undefined) {
    const ids = workflow.statuses.map((s) => s.id);
    throw domainError('invalid_argument', `Unknown status ${quote(value)}. Use one of: ${ids.join(', ')}.`);
  }
  return status;
}

/** The status `value` names in `workflow`, by id, name or alias; undefined when none. */
export function findStatus(workflow: Workflow, value: string): Status | undefined {
  const squeezed = squeeze(value.trim());
  const named = workflow.statuses.find((status) => squeeze(status.id) === squeezed || squeeze(status.name) === squeezed);
  if (named !== undefined) return named.id;
  const alias = ALIASES.get(squeezed);
  return alias !== undefined && workflowStatus(workflow, alias) !== undefined ? alias : undefined;
}

/** "Won't Do", "wont-do" → wont_do; the same forgiveness as statuses. */
export function parseResolution(value: unknown, workflow: Workflow = DEFAULT_WORKFLOW): Resolution {
  const squeezed = typeof value === 'string' ? squeeze(value.trim()) : undefined;
  const resolution = workflow.resolutions.find((r) => squeeze(r) === squeezed);
  if (resolution === undefined) {
    throw domainError('invalid_argument', `Unknown resolution ${quote(value)}. Use one of: ${workflow.resolutions.join(', ')}.`);
  }
  return resolution;
}

/** "Code Review" → code_review: the id a status or resolution given by name only gets. */
export function idOfName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32);
}

/**
 * What is wrong with a workflow, in the tracker's words, or null: ids follow the pattern and
 * are unique (names too, as parseStatus reads them), every move names statuses of the
 * workflow, there is a done status to close to, and the limits hold.
 */
export function workflowProblem(workflow: Workflow): string | null {
  const ids = workflow.statuses.map((status) => status.id);
  const badId = [...ids, ...workflow.resolutions].find((id) => !WORKFLOW_ID_PATTERN.test(id));
  if (badId !== undefined) return `${quote(badId)} is not an id: lower case letters, digits and _, starting with a letter`;
  if (ids.length === 0 || ids.length > LIMITS.workflowStatusesMax)
    return `a workflow has 1 to ${LIMITS.workflowStatusesMax} statuses`;
  const longName = workflow.statuses.find((s) => s.name.length === 0 || s.name.length > LIMITS.statusNameMax);
  if (longName !== undefined) return `status ${longName.id}: a name has 1 to ${LIMITS.statusNameMax} characters`;
  const names = workflow.statuses.flatMap((status) => [squeeze(status.id), squeeze(status.name)]);
  const twice = workflow.statuses.find((status, index) =>
    [squeeze(status.id), squeeze(status.name)].some((name) => names.indexOf(name) < 2 * index),
  );
  if (twice !== undefined) return `status ${twice.id} ("${twice.name}") is named twice`;
  if (doneStatusOf(workflow) === undefined) return 'a workflow needs a status in the done category';
  if (workflow.resolutions.length === 0 || workflow.resolutions.length > LIMITS.workflowResolutionsMax)
    return `a workflow has 1 to ${LIMITS.workflowResolutionsMax} resolutions`;
  if (new Set(workflow.resolutions).size !== workflow.resolutions.length) return 'a resolution is named twice';
  for (const [from, moves] of Object.entries(workflow.transitions)) {
    const unknown = [from, ...moves].find((id) => !ids.includes(id));
    if (unknown !== undefined) return `the moves from ${from} name ${unknown}, which is not a status of the workflow`;
  }
  return null;
}
