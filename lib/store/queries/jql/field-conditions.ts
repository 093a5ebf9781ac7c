// The clauses on an issue's fields beyond the built-in ones (model/fields.ts): `due` (Jira's
// duedate), `component`, `fixVersion`, and a project's custom fields by their quoted name, as
// Jira writes them (`"Story Type" = Research`, `"Hours" > 4`, `"Notes" ~ cache`).
//
// Each becomes the set of issues it names, found among the issues that carry fields at all
// (state.fieldIssues, kept by apply.ts): most issues carry none, so the look is short. The SQL
// engine receives the same set as a list of keys (sql-search.ts), so both answer the same.
//
// Values are checked as the other fields' are: a component, version or option no project has,
// or a custom field no project defines, is an error that lists the known ones, never an
// empty answer. Dates are the day's first instant (UTC), so `due < startOfDay()` is overdue and
// `due <= endOfWeek()` is due this week; they compare as created and updated do.
// `!=`, `NOT IN` and `!~` are the opposite of `=`, `IN` and `~`, as `labels != x` is here: they
// hold for issues without a value too. An ordered comparison (`due < now()`, `"Hours" > 4`)
// holds only for issues with one. Text fields take `~`; the others `=`, `IN`, and dates and
// numbers `<`, `<=`, `>`, `>=`.
import type { FieldDefinition, FieldValue, Issue } from '../../model/schema.js';
import type { TrackerState } from '../../state/state.js';
import type { Clause, CompareOperator, Literal, Value } from './ast.js';
import { dateSpan } from './dates.js';
import { jqlError } from './errors.js';
import { jiraFieldHelp } from './jira-words.js';

/** The fields of this file, as the parser names them. */
export const VALUE_FIELDS = ['due', 'component', 'fixVersion'] as const;
export type ValueField = (typeof VALUE_FIELDS)[number];

/** The issues a clause names, and whether the clause means the others. */
export interface FieldKeys {
  readonly keys: ReadonlySet<string>;
  readonly negated: boolean;
}

type Kind = FieldDefinition['type'] | 'list';

/** What a clause looks at: the name an issue keeps its value under, and what type that value has, per project. */
interface Target {
  /** How the query names it, for errors. */
  readonly shown: string;
  /** The issue's field name (its project's spelling for a custom field) and its type, or undefined where the project has none. */
  readonly fieldIn: (project: string) => { readonly name: string; readonly kind: Kind } | undefined;
  /** The types it has in the projects that define it. */
  readonly kinds: ReadonlySet<Kind>;
  /** Every value a select or list accepts, in any project. */
  readonly options: readonly string[];
}

const fold = (text: string): string => text.trim().toLowerCase();

export function fieldClauseKeys(state: TrackerState, clause: Clause, target: string, now: Date): FieldKeys {
  const known = targetOf(state, target, clause.column);
  const test = predicate(known, clause, now);
  const keys = new Set<string>();
  for (const key of state.fieldIssues) {
    const issue = state.issues.get(key) as Issue;
    const field = known.fieldIn(issue.project);
    const value = field === undefined ? undefined : issue.fields?.[field.name];
    if (value !== undefined && test.holds(value, (field as { kind: Kind }).kind)) keys.add(key);
  }
  return { keys, negated: test.negated };
}

function targetOf(state: TrackerState, target: string, column: number): Target {
  const definitions = [...state.projectFields].sort(([a], [b]) => (a < b ? -1 : 1));
  if (target === 'due')
    return { shown: 'due', fieldIn: () => ({ name: 'due', kind: 'date' }), kinds: new Set(['date']), options: [] };
  if (target === 'component' || target === 'fixVersion') {
    const name = target === 'component' ? 'components' : 'fix_versions';
    const options = definitions.flatMap(([, fields]) => (target === 'component' ? fields.components : fields.versions));
    return { shown: target, fieldIn: () => ({ name, kind: 'list' }), kinds: new Set(['list']), options };
  }
  const byProject = new Map<string, FieldDefinition>();
  for (const [project, fields] of definitions) {
    const field = fields.custom.find((f) => fold(f.name) === fold(target));
    if (field !== undefined) byProject.set(project, field);
  }
  if (byProject.size === 0) {
    const names = [...new Set(definitions.flatMap(([, fields]) => fields.custom.map((f) => `"${f.name}"`)))];
    const known = names.length === 0 ? 'No project defines custom fields.' : `Custom fields: ${names.sort().join(', ')}.`;
    const jira = jiraFieldHelp(target);
    throw jqlError(`Unknown field "${target}"`, column, jira === null ? known : `${jira} ${known}`);
  }
  const fields = [...byProject.values()];
  return {
    shown: `"${fields[0]?.name}"`,
    fieldIn: (project) => {
      const field = byProject.get(project);
      return field === undefined ? undefined : { name: field.name, kind: field.type };
    },
    kinds: new Set(fields.map((field) => field.type)),
    options: fields.flatMap((field) => field.options ?? []),
  };
}

interface Test {
  readonly holds: ValueTest;
  readonly negated: boolean;
}
type ValueTest = (value: FieldValue, kind: Kind) => boolean;
type Ordered = Exclude<CompareOperator, '=' | '!=' | '~' | '!~'>;

const hasOptions = (kind: Kind): boolean => kind === 'list' || kind === 'select' || kind === 'multiselect';

/**
 * The clause as a test of an issue's value. A name may be a different type in two projects
 * ("Story Type" a select in one, text in another): each type reads the clause its own way, and
 * the clause is an error only when no type the field has can read it (an operator or a value
 * none of them takes), so it never answers "nothing" for a mistake.
 */
function predicate(target: Target, clause: Clause, now: Date): Test {
  if (clause.kind === 'empty') return { holds: () => true, negated: !clause.negated };
  const op = clause.kind === 'in' ? '=' : clause.op;
  const positive = op === '!=' ? '=' : op === '!~' ? '~' : op;
  const values = clause.kind === 'in' ? clause.values : [clause.value];
  const byKind = new Map<Kind, ValueTest>();
  let refusal: unknown;
  for (const kind of target.kinds) {
    try {
      if (!takes(kind).includes(positive)) {
        const written = clause.kind === 'in' ? 'IN' : op;
        throw jqlError(`${target.shown} takes ${takes(kind).join(', ')} or IS EMPTY, not '${written}'`, clause.column);
      }
      const tests = values.map((value) => valueTest(target, kind, positive, value, now));
      byKind.set(kind, (held) => tests.some((test) => test(held, kind)));
    } catch (error) {
      refusal ??= error;
    }
  }
  if (byKind.size === 0) throw refusal;
  const holds: ValueTest = (held, kind) => byKind.get(kind)?.(held, kind) ?? false;
  return { holds, negated: clause.kind === 'in' ? clause.negated : op === '!=' || op === '!~' };
}

/** The operators each type takes (their opposites, != and !~, too). Text takes = as an exact match, in any case. */
function takes(kind: Kind): readonly string[] {
  if (hasOptions(kind)) return ['=', '!=', 'IN', 'NOT IN'];
  if (kind === 'text') return ['~', '!~', '=', '!=', 'IN', 'NOT IN'];
  return ['=', '!=', '<', '<=', '>', '>=', 'IN', 'NOT IN'];
}

/** One value of the clause, read as `kind` reads it, as a test of an issue's value. */
function valueTest(target: Target, kind: Kind, op: string, value: Value, now: Date): ValueTest {
  if (hasOptions(kind)) return optionTest(target, value);
  if (kind === 'text') {
    if (op === '~') return wordsTest(target, value);
    const wanted = fold(literal(value, target).text);
    return (held) => fold(String(held)) === wanted;
  }
  if (kind === 'date') return dateTest(op as Ordered | '=', dateSpan(value, now));
  const number = numberOf(value);
  return (held) => compare(op as Ordered | '=', held as number, number);
}

function optionTest(target: Target, value: Value): ValueTest {
  const text = literal(value, target).text;
  const wanted = fold(text);
  if (!target.options.some((option) => fold(option) === wanted)) {
    const options = [...new Set(target.options)];
    throw jqlError(
      `Unknown value '${text}' of ${target.shown}`,
      value.column,
      options.length === 0 ? 'No project defines any.' : `Use one of: ${options.join(', ')}.`,
    );
  }
  return (held) => (Array.isArray(held) ? held : [held]).some((one) => fold(String(one)) === wanted);
}

/** `"Notes" ~ "cache miss"`: every word occurs in the text, in any case. */
function wordsTest(target: Target, value: Value): ValueTest {
  const words = fold(literal(value, target).text).split(/\s+/);
  return (held) => words.every((word) => fold(String(held)).includes(word));
}

/** A day's first instant (UTC) compared with the value's span, as evaluate.ts compares created and updated. */
function dateTest(op: Ordered | '=', { from, until }: { from: string; until: string }): ValueTest {
  return (held) => {
    const at = `${held as string}T00:00:00.000Z`;
    if (op === '=') return at >= from && at < until;
    if (op === '<') return at < from;
    if (op === '<=') return at < until;
    if (op === '>') return at >= until;
    return at >= from;
  };
}

function numberOf(value: Value): number {
  const text = value.kind === 'literal' ? value.text.trim() : '';
  const number = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(number)) {
    throw jqlError(`'${value.kind === 'literal' ? value.text : `${value.name}()`}' is not a number`, value.column);
  }
  return number;
}

function compare(op: Ordered | '=', a: number, b: number): boolean {
  return op === '=' ? a === b : op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

function literal(value: Value, target: Target): Literal {
  if (value.kind === 'literal') return value;
  throw jqlError(`${target.shown} takes a value, not ${value.name}()`, value.column);
}
