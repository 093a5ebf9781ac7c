// From what a query says to what it means: each clause of the tree checked against the fields'
// rules and the store's data, its values in the store's spelling (the store's one forgiving
// parser for statuses: "In Progress" is in_progress), its functions called and its dates made
// instants. The result, a condition tree, is what the planner and the evaluator work on.
//
// No silent empties: a project, person or sprint the store does not know is an error that
// names the known ones, where a scan would have answered "nothing" and let the caller
// believe it.
import { parseIssueType, parsePriority } from '../../model/args.js';
import { isDomainError } from '../../model/errors.js';
import type { FieldValue, IndexedField } from '../../indexes/index-fields.js';
import { describeSprints } from '../../state/lookup.js';
import { DATE_PATTERN, ISSUE_TYPES, LABEL_PATTERN, PRIORITIES, STATUSES, TIMESTAMP_PATTERN } from '../../model/schema.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from '../../state/state.js';
import { searchWords } from '../../indexes/word-index.js';
import { parseStatus } from '../../model/workflow.js';
import type { Clause, CompareOperator, Expression, Field, Value } from './ast.js';
import { jqlError } from './errors.js';

export type DateField = 'created' | 'updated';

export type Condition =
  /** The field holds one of `values` (labels: any of its labels does; null: the field is empty); or none of them, negated. */
  | { readonly kind: 'one-of'; readonly field: IndexedField; readonly values: ReadonlySet<FieldValue>; readonly negated: boolean }
  /** The timestamp compared with the span [from, until): a day, or one instant (a span of 1 ms). */
  | { readonly kind: 'date'; readonly field: DateField; readonly op: DateOperator; readonly from: string; readonly until: string }
  /** Every word occurs in the title, description or a comment. */
  | { readonly kind: 'text'; readonly words: readonly string[] }
  | { readonly kind: 'and' | 'or'; readonly operands: readonly Condition[] }
  | { readonly kind: 'not'; readonly operand: Condition };

/** Every one of `conditions` holds: null for none (everything matches), the condition itself for one. */
export function allOf(conditions: readonly Condition[]): Condition | null {
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] as Condition) : { kind: 'and', operands: conditions };
}

export type DateOperator = Exclude<CompareOperator, '~'>;

export interface ResolveContext {
  readonly now: Date;
  /** Who currentUser() is: --user or MCP_TRACKER_USER; null when neither was given. */
  readonly user: string | null;
}

/** Fields that can be empty; asking whether another one is would always answer the same. */
const EMPTYABLE: ReadonlySet<Field> = new Set(['assignee', 'sprint', 'labels']);
/** How many known values an error lists before it says how many more there are. */
const LISTED_MAX = 20;

export function resolve(state: TrackerState, expression: Expression, context: ResolveContext): Condition {
  switch (expression.kind) {
    case 'and':
    case 'or':
      return { kind: expression.kind, operands: expression.operands.map((e) => resolve(state, e, context)) };
    case 'not':
      return { kind: 'not', operand: resolve(state, expression.operand, context) };
    default:
      return resolveClause(state, expression, context);
  }
}

function resolveClause(state: TrackerState, clause: Clause, context: ResolveContext): Condition {
  const field = clause.field;
  if (clause.kind === 'empty') {
    if (!EMPTYABLE.has(field))
      throw jqlError(`${field} is never empty`, clause.column, `Fields that can be: ${[...EMPTYABLE].join(', ')}.`);
    return { kind: 'one-of', field: field as IndexedField, values: new Set([null]), negated: clause.negated };
  }
  if (field === 'text') {
    if (clause.kind !== 'compare' || clause.op !== '~')
      throw jqlError("text takes only '~'", clause.column, 'Write text ~ "words".');
    return { kind: 'text', words: textWords(clause.value) };
  }
  if (field === 'created' || field === 'updated') {
    if (clause.kind !== 'compare' || clause.op === '~') {
      throw jqlError(`${field} takes =, !=, <, <=, > or >=`, clause.column, `Write ${field} >= -7d or ${field} < 2025-06-01.`);
    }
    return { kind: 'date', field, op: clause.op, ...dateSpan(clause.value, context.now) };
  }
  if (clause.kind === 'compare' && clause.op !== '=' && clause.op !== '!=') {
    throw jqlError(`${field} takes =, !=, IN, NOT IN or IS EMPTY, not '${clause.op}'`, clause.column);
  }
  const values = clause.kind === 'compare' ? [clause.value] : clause.values;
  const negated = clause.kind === 'compare' ? clause.op === '!=' : clause.negated;
  const resolved = new Set<FieldValue>();
  for (const value of values) {
    if (value.kind === 'function' && value.name === 'openSprints' && clause.kind === 'compare') {
      throw jqlError('openSprints() is a list', value.column, 'Write sprint IN openSprints().');
    }
    for (const one of resolveValue(state, field, value, context)) resolved.add(one);
  }
  return { kind: 'one-of', field, values: resolved, negated };
}

/** One value of a field, in the store's spelling; a function may give several. */
function resolveValue(state: TrackerState, field: IndexedField, value: Value, context: ResolveContext): FieldValue[] {
  if (value.kind === 'function') return callFunction(state, field, value, context);
  const text = value.text;
  switch (field) {
    case 'project':
      return [knownProject(state, text, value.column)];
    case 'status':
      return [spelled(parseStatus, text, value.column, 'status', STATUSES)];
    case 'priority':
      return [spelled(parsePriority, text, value.column, 'priority', PRIORITIES)];
    case 'type':
      return [spelled(parseIssueType, text, value.column, 'type', ISSUE_TYPES)];
    case 'assignee':
    case 'reporter':
      return [knownPerson(state, text, value.column)];
    case 'sprint':
      return [knownSprint(state, text, value.column)];
    case 'labels': {
      const label = text.trim().toLowerCase();
      if (!LABEL_PATTERN.test(label)) {
        throw jqlError(`'${text}' is not a label`, value.column, "Labels are lower-case letters, digits, '-' or '_'.");
      }
      return [label];
    }
  }
}

function callFunction(
  state: TrackerState,
  field: IndexedField,
  value: Extract<Value, { kind: 'function' }>,
  context: ResolveContext,
): FieldValue[] {
  if (value.name === 'currentUser') {
    if (field !== 'assignee' && field !== 'reporter')
      throw jqlError('currentUser() is a person: use it with assignee or reporter', value.column);
    // Who the user is was given, not asked for: someone with no issues yet gets an empty answer, not an error.
    if (context.user === null) {
      throw jqlError('currentUser() is not known', value.column, 'Start the server with --user NAME or set MCP_TRACKER_USER.');
    }
    return [context.user];
  }
  if (field !== 'sprint') throw jqlError('openSprints() is a list of sprints: use it with sprint IN', value.column);
  // Open, as in Jira: every sprint not closed, the active and the future ones.
  return sortedSprints(state)
    .filter((sprint) => sprint.state !== 'closed')
    .map((sprint) => sprint.id);
}

/** The forgiving parser of the store for this field, with the query's column on failure. */
function spelled<T extends string>(
  parse: (value: unknown) => T,
  text: string,
  column: number,
  field: string,
  known: readonly string[],
): T {
  try {
    return parse(text);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    throw jqlError(`Unknown ${field} '${text}'`, column, `Use one of: ${known.join(', ')}.`);
  }
}

function knownProject(state: TrackerState, text: string, column: number): string {
  const key = text.trim().toUpperCase();
  if (state.projects.has(key)) return key;
  throw jqlError(`Unknown project '${text}'`, column, `Projects: ${listed(sortedProjectKeys(state))}.`);
}

function knownPerson(state: TrackerState, text: string, column: number): string {
  const handle = text.trim().toLowerCase();
  if (state.people.has(handle)) return handle;
  throw jqlError(`Unknown user '${text}'`, column, `People: ${listed([...state.people].sort())}.`);
}

/** A sprint by id (PROJ-S42) or by name ("Sprint 42"), case-insensitively. */
function knownSprint(state: TrackerState, text: string, column: number): string {
  const wanted = text.trim().toUpperCase();
  if (state.sprints.has(wanted)) return wanted;
  const sprints = sortedSprints(state);
  const named = sprints.find((sprint) => sprint.name.toUpperCase() === wanted);
  if (named !== undefined) return named.id;
  const known =
    sprints.length > LISTED_MAX
      ? `${describeSprints(sprints.slice(-LISTED_MAX))} and ${sprints.length - LISTED_MAX} older`
      : describeSprints(sprints);
  throw jqlError(`Unknown sprint '${text}'`, column, `Sprints: ${known}.`);
}

function listed(values: readonly string[]): string {
  if (values.length === 0) return 'none';
  if (values.length <= LISTED_MAX) return values.join(', ');
  return `${values.slice(0, LISTED_MAX).join(', ')} and ${values.length - LISTED_MAX} more`;
}

function textWords(value: Value): string[] {
  if (value.kind === 'function') throw jqlError('text ~ takes words, not a function', value.column);
  try {
    const words = searchWords(value.text, 'The text');
    if (words.length === 0) throw jqlError('text ~ needs at least one word', value.column);
    return words;
  } catch (error) {
    if (!isDomainError(error) || error.message.includes(' at column ')) throw error;
    throw jqlError(error.message.replace(/\.$/, ''), value.column);
  }
}

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };
const RELATIVE = /^([+-])(\d{1,5})([hdw])$/;

/** A date as the span it names: a whole UTC day for 2025-06-01, one instant for a timestamp or -7d. */
function dateSpan(value: Value, now: Date): { from: string; until: string } {
  if (value.kind === 'function') throw jqlError('Expected a date, not a function', value.column);
  const text = value.text.trim().toLowerCase();
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    const sign = relative[1] === '-' ? -1 : 1;
    return instant(now.getTime() + sign * Number(relative[2]) * (UNIT_MS[relative[3] as string] as number));
  }
  const upper = text.toUpperCase();
  if (DATE_PATTERN.test(upper) && isRealDate(`${upper}T00:00:00.000Z`)) {
    const from = Date.parse(`${upper}T00:00:00.000Z`);
    return { from: new Date(from).toISOString(), until: new Date(from + DAY_MS).toISOString() };
  }
  if (TIMESTAMP_PATTERN.test(upper) && isRealDate(upper)) return instant(Date.parse(upper));
  throw jqlError(
    `'${value.text}' is not a date`,
    value.column,
    'Write a day (2025-06-01), a time (2025-06-01T09:30:00.000Z) or a time from now (-7d, -2w, -12h).',
  );
}

function instant(ms: number): { from: string; until: string } {
  return { from: new Date(ms).toISOString(), until: new Date(ms + 1).toISOString() };
}

/** 2025-02-30 matches the pattern but is no day: Date would quietly make it March 2. */
function isRealDate(iso: string): boolean {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso;
}
