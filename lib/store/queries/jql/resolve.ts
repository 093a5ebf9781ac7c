// From what a query says to what it means: each clause of the tree checked against the fields'
// rules and the store's data, its values in the store's spelling (the store's one forgiving
// parser for statuses: "In Progress" is in_progress), its functions called and its dates made
// instants. The result, a condition tree, is what the planner and the evaluator work on.
//
// No silent empties: a project, person or sprint the store does not know is an error that
// names the known ones, where a scan would have answered "nothing" and let the caller
// believe it.
//
// The resolver runs in the query language's companion (language.ts), so what it reads of the
// server's indexes is handed to it (ResolveIndexes), never read through its own copy of indexes/.
import { parseIssueType, parsePriority } from '../../model/args.js';
import { isDomainError } from '../../model/errors.js';
import type { FieldValue, IndexedField } from '../../indexes/index-fields.js';
import type { idsWithValue } from '../../indexes/field-index.js';
import { describeSprints } from '../../state/lookup.js';
import { findPerson, unknownPersonHint } from '../../state/people.js';
import { ISSUE_TYPES, LABEL_PATTERN, PRIORITIES, type Priority, type Resolution, type Status } from '../../model/schema.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from '../../state/state.js';
import { searchWords } from '../../indexes/word-index.js';
import { squeeze, type StatusCategory } from '../../model/workflow.js';
import { knownStatuses, openStatuses, statusesIn, statusesNamed } from '../../state/workflows.js';
import type { Clause, CompareOperator, Expression, Field, FunctionName, Literal, Value } from './ast.js';
import type { Condition, ResolveContext, TextField } from './conditions.js';
import { dateSpan, isDateFunction } from './dates.js';
import { VALUE_FIELDS, fieldClauseKeys } from './field-conditions.js';
import { jqlError } from './errors.js';
import { childrenOf, everyChild, issuesOf, keysInOrder, knownIssue, resolutionNamed, resolvedWith } from './issue-sets.js';

/** Fields that can be empty; asking whether another one is would always answer the same. */
const EMPTYABLE: ReadonlySet<Field> = new Set(['assignee', 'sprint', 'labels', 'parent', 'resolution']);
/** How many known values an error lists before it says how many more there are. */
const LISTED_MAX = 20;
const TEXT_FIELDS: ReadonlySet<Field> = new Set(['text', 'summary', 'description', 'comment']);
/** Fields of an issue's `fields` (jql/field-conditions.ts), answered as sets of keys like the custom ones. */
const FIELD_CLAUSES: ReadonlySet<Field> = new Set(VALUE_FIELDS);

/**
 * Jira's names of its status categories. Each status has one category in every workflow
 * (state/workflows.ts); in the default one a blocked issue was started (Jira files a Blocked
 * status under In Progress), and a reopened one waits to be started again, as Jira's Reopened does.
 */
const CATEGORY_NAMES: ReadonlyMap<string, StatusCategory> = new Map<string, StatusCategory>([
  ['todo', 'todo'],
  ['new', 'todo'],
  ['inprogress', 'inprogress'],
  ['indeterminate', 'inprogress'],
  ['done', 'done'],
]);

/** Functions that give a list: written with IN, never with =. */
const LIST_FUNCTIONS: ReadonlySet<FunctionName> = new Set([
  'openSprints',
  'futureSprints',
  'closedSprints',
  'linkedIssues',
  'blockedIssues',
  'blockingIssues',
]);

const not = (operand: Condition): Condition => ({ kind: 'not', operand });
const negatedIf = (negated: boolean, condition: Condition): Condition => (negated ? not(condition) : condition);

/**
 * What the resolver reads from the server's indexes: the status index, for resolutions. Handed
 * in, because a companion's own copy of indexes/ would build indexes of its own from the state,
 * which no write keeps current (changes/apply.ts keeps the server's).
 */
export interface ResolveIndexes {
  readonly idsWithValue: typeof idsWithValue;
}

export function resolve(
  state: TrackerState,
  expression: Expression,
  context: ResolveContext,
  indexes: ResolveIndexes,
): Condition {
  switch (expression.kind) {
    case 'and':
    case 'or':
      return { kind: expression.kind, operands: expression.operands.map((e) => resolve(state, e, context, indexes)) };
    case 'not':
      return not(resolve(state, expression.operand, context, indexes));
    default:
      return resolveClause(state, expression, context, indexes);
  }
}

function resolveClause(state: TrackerState, clause: Clause, context: ResolveContext, indexes: ResolveIndexes): Condition {
  const field = clause.field;
  if (typeof field !== 'string' || FIELD_CLAUSES.has(field)) {
    const { keys, negated } = fieldClauseKeys(state, clause, typeof field === 'string' ? field : field.custom, context.now);
    return negatedIf(negated, { kind: 'keys', keys });
  }
  if (clause.kind === 'empty') return emptyCondition(state, field, clause.negated, clause.column);
  if (TEXT_FIELDS.has(field)) {
    if (clause.kind !== 'compare' || (clause.op !== '~' && clause.op !== '!~'))
      throw jqlError(`${field} takes only '~' or '!~'`, clause.column, `Write ${field} ~ "words".`);
    const words = textWords(field, clause.value);
    const text: Condition = field === 'text' ? { kind: 'text', words } : { kind: 'text', words, field: field as TextField };
    return negatedIf(clause.op === '!~', text);
  }
  if (field === 'created' || field === 'updated') {
    if (clause.kind !== 'compare' || clause.op === '~' || clause.op === '!~') {
      throw jqlError(`${field} takes =, !=, <, <=, > or >=`, clause.column, `Write ${field} >= -7d or ${field} < startOfWeek().`);
    }
    return { kind: 'date', field, op: clause.op, ...dateSpan(clause.value, context.now) };
  }
  if (clause.kind === 'compare' && clause.op !== '=' && clause.op !== '!=') {
    if (clause.op !== '~' && clause.op !== '!~' && clause.value.kind === 'literal') {
      if (field === 'priority')
        return { kind: 'one-of', field, values: new Set(prioritiesOrdered(clause.op, clause.value)), negated: false };
      if (field === 'key') return { kind: 'keys', keys: keysInOrder(state, clause.op, clause.value) };
    }
    const ordered = field === 'priority' || field === 'key' ? ', <, <=, >, >=' : '';
    throw jqlError(`${field} takes =, !=, IN, NOT IN${ordered} or IS EMPTY, not '${clause.op}'`, clause.column);
  }
  const values = clause.kind === 'compare' ? [clause.value] : clause.values;
  const negated = clause.kind === 'compare' ? clause.op === '!=' : clause.negated;
  for (const value of values) {
    if (value.kind === 'function' && LIST_FUNCTIONS.has(value.name) && clause.kind === 'compare') {
      throw jqlError(`${value.name}() is a list`, value.column, `Write ${field} IN ${value.name}().`);
    }
  }
  switch (field) {
    case 'key': {
      const keys = new Set<string>();
      for (const value of values) for (const key of issueKeys(state, value)) keys.add(key);
      return negatedIf(negated, { kind: 'keys', keys });
    }
    case 'parent':
      return negatedIf(negated, {
        kind: 'keys',
        keys: childrenOf(
          state,
          values.map((value) => literal(value, 'an issue key')),
        ),
      });
    case 'resolution':
      return negatedIf(negated, resolutionCondition(state, values, indexes));
    case 'statusCategory': {
      const statuses = values.flatMap((value) => statusCategory(state, literal(value, 'a status category')));
      return { kind: 'one-of', field: 'status', values: new Set(statuses), negated };
    }
    default: {
      const resolved = new Set<FieldValue>();
      for (const value of values) for (const one of resolveValue(state, field as IndexedField, value, context)) resolved.add(one);
      return { kind: 'one-of', field: field as IndexedField, values: resolved, negated };
    }
  }
}

/** `field IS [NOT] EMPTY`; the resolution is empty exactly while an issue is open (apply.ts sets it on done). */
function emptyCondition(state: TrackerState, field: Field, negated: boolean, column: number): Condition {
  if (field === 'parent') return negatedIf(!negated, { kind: 'keys', keys: everyChild(state) });
  if (field === 'resolution') return { kind: 'one-of', field: 'status', values: new Set(openStatuses(state)), negated };
  if (!EMPTYABLE.has(field))
    throw jqlError(`${field} is never empty`, column, `Fields that can be: ${[...EMPTYABLE].join(', ')}.`);
  return { kind: 'one-of', field: field as IndexedField, values: new Set([null]), negated };
}

/** `resolution IN (Unresolved, duplicate)`: open issues for Unresolved, the done issues resolved so for the rest. */
function resolutionCondition(state: TrackerState, values: readonly Value[], indexes: ResolveIndexes): Condition {
  const named = values.map((value) => resolutionNamed(state, literal(value, 'a resolution')));
  const resolutions = new Set(named.filter((r): r is Resolution => r !== null));
  const resolved: Condition = { kind: 'keys', keys: resolvedWith(state, resolutions, indexes.idsWithValue) };
  if (!named.includes(null)) return resolved;
  return {
    kind: 'or',
    operands: [{ kind: 'one-of', field: 'status', values: new Set(openStatuses(state)), negated: false }, resolved],
  };
}

/** The issues a value of `key` names: one key, or a function's list. */
function issueKeys(state: TrackerState, value: Value): Iterable<string> {
  if (value.kind === 'literal') return [knownIssue(state, value.text, value.column).key];
  if (LIST_FUNCTIONS.has(value.name) && !value.name.endsWith('Sprints')) return issuesOf(state, value);
  throw functionMisused(value);
}

function literal(value: Value, what: string): Literal {
  if (value.kind === 'literal') return value;
  throw jqlError(`Expected ${what}, not ${value.name}()`, value.column);
}

function statusCategory(state: TrackerState, value: Literal): readonly Status[] {
  const category = CATEGORY_NAMES.get(squeeze(value.text.trim()));
  if (category !== undefined) return statusesIn(state, category);
  throw jqlError(`Unknown status category '${value.text}'`, value.column, 'Use one of: "To Do", "In Progress", Done.');
}

/**
 * `priority <= P1`, `priority >= High`. Each spelling is compared on its own scale: P-levels by
 * their number (P0 < P1, so `<= P1` is P0 and P1), Jira's names by urgency (Highest > High, so
 * `>= High` is High and Highest, the same two). Each reads as its writer meant it.
 */
function prioritiesOrdered(op: CompareOperator, value: Literal): Priority[] {
  const at = PRIORITIES.indexOf(spelled(parsePriority, value.text, value.column, 'priority', PRIORITIES));
  const byNumber = /^p\d$/i.test(value.text.trim());
  const below = (i: number) => (byNumber ? i < at : i > at);
  const above = (i: number) => (byNumber ? i > at : i < at);
  const holds: Record<string, (i: number) => boolean> = {
    '<': below,
    '<=': (i) => i === at || below(i),
    '>': above,
    '>=': (i) => i === at || above(i),
  };
  const test = holds[op] as (i: number) => boolean;
  return PRIORITIES.filter((_, i) => test(i));
}

/** One value of a field, in the store's spelling; a function may give several. */
function resolveValue(state: TrackerState, field: IndexedField, value: Value, context: ResolveContext): FieldValue[] {
  if (value.kind === 'function') return callFunction(state, field, value, context);
  const text = value.text;
  switch (field) {
    case 'project':
      return [knownProject(state, text, value.column)];
    case 'status':
      return knownStatus(state, text, value.column);
    case 'priority':
      return [spelled(parsePriority, text, value.column, 'priority', PRIORITIES)];
    case 'type':
      return [spelled(parseIssueType, text, value.column, 'type', ISSUE_TYPES)];
    case 'assignee':
    case 'reporter':
      return [knownPerson(state, text, value.column)];
    case 'sprint':
      return knownSprints(state, text, value.column);
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
  const states = { openSprints: ['active', 'future'], futureSprints: ['future'], closedSprints: ['closed'] }[
    value.name as string
  ];
  if (states === undefined || field !== 'sprint') throw functionMisused(value);
  // Open, as in Jira: every sprint not closed, the active and the future ones.
  return sortedSprints(state)
    .filter((sprint) => states.includes(sprint.state))
    .map((sprint) => sprint.id);
}

/** A function used with a field it gives nothing for: what it gives, and where it belongs. */
function functionMisused(value: Extract<Value, { kind: 'function' }>): never {
  const name = `${value.name}()`;
  if (value.name === 'currentUser') throw jqlError(`${name} is a person: use it with assignee or reporter`, value.column);
  if (value.name.endsWith('Sprints')) throw jqlError(`${name} is a list of sprints: use it with sprint IN`, value.column);
  if (isDateFunction(value.name)) throw jqlError(`${name} is a date: use it with created or updated`, value.column);
  throw jqlError(`${name} is a list of issues: use it with key IN (or issue IN)`, value.column);
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

/** A status by id or name in any project's workflow ("Code Review" is every workflow's status of that name). */
function knownStatus(state: TrackerState, text: string, column: number): Status[] {
  const statuses = statusesNamed(state, text);
  if (statuses.length > 0) return statuses;
  throw jqlError(`Unknown status '${text}'`, column, `Use one of: ${listed(knownStatuses(state))}.`);
}

function knownProject(state: TrackerState, text: string, column: number): string {
  const key = text.trim().toUpperCase();
  if (state.projects.has(key)) return key;
  throw jqlError(`Unknown project '${text}'`, column, `Projects: ${listed(sortedProjectKeys(state))}.`);
}

/** A person by handle, display name, e-mail or alias (state/people.ts), as Jira takes them. */
function knownPerson(state: TrackerState, text: string, column: number): string {
  const found = findPerson(state, text);
  if (found !== null && 'handle' in found) return found.handle;
  if (found !== null)
    throw jqlError(`'${text}' names ${found.several.length} people`, column, `Use a handle: ${found.several.join(', ')}.`);
  throw jqlError(`Unknown user '${text}'`, column, unknownPersonHint(state, text));
}

/** A sprint by id (PROJ-S42) or by name ("Sprint 42", every project's sprint of that name), case-insensitively. */
function knownSprints(state: TrackerState, text: string, column: number): string[] {
  const wanted = text.trim().toUpperCase();
  if (state.sprints.has(wanted)) return [wanted];
  const sprints = sortedSprints(state);
  const named = sprints.filter((sprint) => sprint.name.toUpperCase() === wanted);
  if (named.length > 0) return named.map((sprint) => sprint.id);
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

function textWords(field: Field, value: Value): string[] {
  if (value.kind === 'function') throw jqlError(`${field} ~ takes words, not a function`, value.column);
  try {
    const words = searchWords(value.text, 'The text');
    if (words.length === 0) throw jqlError(`${field} ~ needs at least one word`, value.column);
    return words;
  } catch (error) {
    if (!isDomainError(error) || error.message.includes(' at column ')) throw error;
    throw jqlError(error.message.replace(/\.$/, ''), value.column);
  }
}
