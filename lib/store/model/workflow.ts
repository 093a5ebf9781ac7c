// The workflow: which status an issue may move to from the one it has, and the one
// forgiving parser of status names that tools, queries and imports all use.
//
//   todo → in_progress → in_review → done → reopened → in_progress
//                   in_review → in_progress (changes asked for in review)
//   any open status → blocked → the status it came from, or todo / in_progress
//   any open status → done, with a resolution (closing: a duplicate, won't do, ...)
//
// The rule applies to new changes only (commands.ts plans them). A journal keeps what
// happened: a file written before the rule, or imported from elsewhere, may hold a move the
// rule refuses today, and it still opens (apply.ts checks only that `from` is the current
// status). Setting the status an issue already has is not a move: nothing is written.
import { domainError } from './errors.js';
import { quote } from './args.js';
import { RESOLUTIONS, STATUSES, type Resolution, type Status } from './schema.js';

/** Statuses that count as work still to do: everything but done. */
export const OPEN_STATUSES: readonly Status[] = STATUSES.filter((status) => status !== 'done');

const MOVES: Readonly<Record<Status, readonly Status[]>> = {
  todo: ['in_progress', 'blocked'],
  in_progress: ['in_review', 'blocked'],
  in_review: ['done', 'in_progress', 'blocked'],
  blocked: ['todo', 'in_progress'],
  done: ['reopened'],
  reopened: ['in_progress', 'blocked'],
};

/**
 * Where an issue may go from `status`. A blocked issue may also go back to the status it
 * was blocked from (`blockedFrom`, when the journal saw the move into blocked).
 */
export function allowedMoves(status: Status, blockedFrom?: Status): Status[] {
  const moves = [...MOVES[status]];
  if (status === 'blocked' && blockedFrom !== undefined && !moves.includes(blockedFrom)) moves.push(blockedFrom);
  return moves;
}

export function isOpen(status: Status): boolean {
  return status !== 'done';
}

/** Jira's three status categories, which JQL's statusCategory reads. */
export const STATUS_CATEGORY: Readonly<Record<Status, 'todo' | 'inprogress' | 'done'>> = {
  todo: 'todo',
  reopened: 'todo',
  in_progress: 'inprogress',
  in_review: 'inprogress',
  blocked: 'inprogress',
  done: 'done',
};

/**
 * Refuses a move the workflow does not allow, naming the ones it does. Closing is the one move
 * from anywhere: an open issue goes straight to done when a resolution says why (a duplicate
 * found in todo is closed in one move, and no time in progress is recorded that never was).
 */
export function requireMove(key: string, from: Status, to: Status, blockedFrom?: Status, resolution?: Resolution): void {
  const allowed = allowedMoves(from, blockedFrom);
  if (allowed.includes(to) || (to === 'done' && resolution !== undefined && isOpen(from))) return;
  throw domainError(
    'conflict',
    `${key} cannot move from ${from} to ${to}. From ${from} it can move to: ${allowed.join(', ')}. ` +
      `The workflow is todo → in_progress → in_review → done, any open status ↔ blocked, done → reopened → in_progress; ` +
      `any open status closes to done with a resolution (${RESOLUTIONS.join(', ')}).`,
  );
}

/**
 * Other names people and Jira exports use for the same statuses. Jira's classic workflow
 * calls a new issue Open and a finished one Resolved or Closed.
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

/** A status name with case, spaces, dashes and underscores taken out: "In-Progress" → inprogress. */
const squeeze = (value: string): string => value.toLowerCase().replace(/[\s_-]+/g, '');

const BY_SQUEEZED: ReadonlyMap<string, Status> = new Map([
  ...STATUSES.map((status): [string, Status] => [squeeze(status), status]),
  ...ALIASES,
]);

/**
 * The one status parser: "In Progress", "in-progress", "IN_PROGRESS" and "inprogress" are
 * all in_progress, "To Do" is todo, "Closed" is done. Anything else is refused, never guessed.
 */
export function parseStatus(value: unknown): Status {
  const status = typeof value === 'string' ? BY_SQUEEZED.get(squeeze(value.trim())) : undefined;
  if (status === undefined) {
    throw domainError('invalid_argument', `Unknown status ${quote(value)}. Use one of: ${STATUSES.join(', ')}.`);
  }
  return status;
}

/** "Won't Do", "wont-do" → wont_do; the same forgiveness as statuses. */
export function parseResolution(value: unknown): Resolution {
  const squeezed = typeof value === 'string' ? squeeze(value.trim().replace(/'/g, '')) : undefined;
  const resolution = RESOLUTIONS.find((r) => squeeze(r) === squeezed);
  if (resolution === undefined) {
    throw domainError('invalid_argument', `Unknown resolution ${quote(value)}. Use one of: ${RESOLUTIONS.join(', ')}.`);
  }
  return resolution;
}
