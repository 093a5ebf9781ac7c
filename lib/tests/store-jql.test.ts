// The query language: what parses and how it prints, every error with its column, the
// printer and parser agreeing on any tree (property test), the indexed engine agreeing with a
// naive one on random queries over random issues (fixed seeds), and the indexes following
// every change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyRecord } from '../store/changes/apply.js';
import {
  COMPARE_OPERATORS,
  FIELDS,
  ORDER_FIELDS,
  type Expression,
  type Query,
  type SortKey,
  type Value,
} from '../store/queries/jql/ast.js';
import { idsWithValue } from '../store/indexes/field-index.js';
import { countBits } from '../store/indexes/id-set.js';
import { exactMatches } from '../store/queries/jql/exact.js';
import { parseQuery } from '../store/queries/jql/parser.js';
import { printQuery } from '../store/queries/jql/printer.js';
import { resolve } from '../store/queries/jql/resolve.js';
import { runQuery } from '../store/queries/jql/run.js';
import { ISSUE_TYPES, PRIORITIES, RESOLUTIONS, STATUSES, type Issue } from '../store/model/schema.js';
import type { JournalRecord, RecordDraft } from '../store/model/record-schema.js';
import { createEmptyState, type TrackerState } from '../store/state/state.js';
import { isDomainError, openStore } from '../store/index.js';
import { createRng } from '../../spec-tests/fuzz/prng.js';
import { oneOf } from './jql-arbitraries.js';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const CONTEXT = { now: NOW, user: 'alice' };
const directories: string[] = [];

test.after(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(isDomainError(error), `expected a DomainError, got ${String(error)}`);
    return error.message;
  }
  assert.unreachable('no error: the call succeeded');
  return '';
}

// ---------------------------------------------------------------------------
// Parsing and printing
// ---------------------------------------------------------------------------

test('queries parse and print in one canonical spelling', () => {
  const cases: [string, string][] = [
    ['project=PROJ and status = "In Progress"', 'project = PROJ AND status = "In Progress"'],
    ['status in (todo,in_review) or priority = P0 and type = bug', 'status IN (todo, in_review) OR priority = P0 AND type = bug'],
    ['(status in (todo) or priority = P0) and type = bug', '(status IN (todo) OR priority = P0) AND type = bug'],
    ['not not assignee is empty', 'NOT NOT assignee IS EMPTY'],
    ['assignee = EMPTY and sprint != null', 'assignee IS EMPTY AND sprint IS NOT EMPTY'],
    ['sprint in openSprints() and assignee = currentuser()', 'sprint IN openSprints() AND assignee = currentUser()'],
    ['labels not in (checkout, "back end")', 'labels NOT IN (checkout, "back end")'],
    ['created >= -7d AND updated < 2025-06-01', 'created >= -7d AND updated < 2025-06-01'],
    ['text ~ "say \\"hi\\""', 'text ~ "say \\"hi\\""'],
    ['text ~ "and"', 'text ~ "and"'],
    ['order by priority desc, key', 'ORDER BY priority DESC, key'],
    ['', ''],
    ['status = todo ORDER BY updated asc', 'status = todo ORDER BY updated'],
  ];
  for (const [query, printed] of cases) assert.is(printQuery(parseQuery(query)), printed, query);
});

test('AND binds tighter than OR, NOT tighter than AND', () => {
  assert.equal(stripColumns(parseQuery('NOT type = 1')), {
    where: { kind: 'not', operand: { kind: 'compare', field: 'type', op: '=', value: { kind: 'literal', text: '1' } } },
    orderBy: [],
  });
  const tree = stripColumns(parseQuery('type = bug OR NOT type = task AND priority = P0'));
  assert.equal(tree.where, {
    kind: 'or',
    operands: [
      { kind: 'compare', field: 'type', op: '=', value: { kind: 'literal', text: 'bug' } },
      {
        kind: 'and',
        operands: [
          { kind: 'not', operand: { kind: 'compare', field: 'type', op: '=', value: { kind: 'literal', text: 'task' } } },
          { kind: 'compare', field: 'priority', op: '=', value: { kind: 'literal', text: 'P0' } },
        ],
      },
    ],
  });
});

test('syntax errors say what was expected and point at the column', () => {
  const cases: [string, string][] = [
    ['project = PROJ AND status =', "Expected a value after '=' at column 28. Found the end of the query."],
    [
      'status = todo AND',
      "Expected a field name after 'AND' at column 18. Found the end of the query. Fields: project, status, statusCategory, priority, assignee, reporter, type, sprint, labels, created, updated, key, parent, resolution, text, summary, description, comment, due, component, fixVersion.",
    ],
    [
      'colour = red',
      "Unknown field 'colour' at column 1. Fields: project, status, statusCategory, priority, assignee, reporter, type, sprint, labels, created, updated, key, parent, resolution, text, summary, description, comment, due, component, fixVersion.",
    ],
    [
      'status todo',
      "Expected an operator after 'status' at column 8. Found 'todo'. Operators: =, !=, ~, !~, <, <=, >, >=, IN, NOT IN, IS EMPTY, IS NOT EMPTY.",
    ],
    ['status = todo priority = P0', "Unexpected 'priority' at column 15. Expected AND, OR, ORDER BY or the end of the query."],
    ['(status = todo', "Expected ')' to close the '(' at column 1 at column 15. Found the end of the query."],
    ['status IN (todo, )', "Expected a value after ',' at column 18. Found ')'."],
    ['status NOT todo', "Expected IN after NOT at column 12. Found 'todo'."],
    ['assignee IS nobody', "Expected EMPTY after IS at column 13. Found 'nobody'."],
    ['text ~ "open', 'The string that starts here is not closed: add " at column 8.'],
    ['status = todo & type = bug', "Unexpected character '&' at column 15."],
    [
      'assignee = me()',
      "Unknown function 'me()' at column 12. Functions: currentUser(), openSprints(), futureSprints(), closedSprints(), now(), startOfDay(), startOfWeek(), startOfMonth(), startOfYear(), endOfDay(), endOfWeek(), endOfMonth(), endOfYear(), linkedIssues(), blockedIssues(), blockingIssues().",
    ],
    ['ORDER priority', "Expected BY after ORDER at column 7. Found 'priority'."],
    [
      'ORDER BY text',
      "Expected a field to order by at column 10. Found 'text'. Fields: key, project, status, priority, assignee, reporter, type, sprint, created, updated, due.",
    ],
    ['status = AND', "Expected a value after '=' at column 10. Found 'AND'."],
  ];
  for (const [query, message] of cases)
    assert.is(
      failure(() => parseQuery(query)),
      message,
      query,
    );
});

test('the parser refuses queries past its bounds before doing their work', () => {
  assert.match(
    failure(() => parseQuery(`text ~ "${'a'.repeat(2_000)}"`)),
    'The query is 2009 characters long; the limit is 2000',
  );
  assert.match(
    failure(() => parseQuery(`${'('.repeat(40)}status = todo${')'.repeat(40)}`)),
    'nests deeper than 32',
  );
  assert.match(
    failure(() => parseQuery(`${'NOT '.repeat(40)}status = todo`)),
    'nests deeper than 32',
  );
  const values = Array.from({ length: 101 }, (_, i) => `v${i}`).join(', ');
  assert.match(
    failure(() => parseQuery(`labels IN (${values})`)),
    'The list has more than 100 values at column 11',
  );
  assert.match(
    failure(() => parseQuery(42)),
    'The query must be a string',
  );
});

// ---------------------------------------------------------------------------
// Printer and parser agree on any tree
// ---------------------------------------------------------------------------

type Columnless<T> = T extends object ? { [K in keyof T as K extends 'column' ? never : K]: Columnless<T[K]> } : T;

function stripColumns<T>(value: T): Columnless<T> {
  return JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'column' ? undefined : inner))) as Columnless<T>;
}

const column = 1;
const arbitraryText = fc.oneof(
  fc.constantFrom('todo', 'In Progress', 'PROJ-S42', 'dmitri.k', '-7d', 'and', 'ORDER', 'say "hi"', 'a\\b', "it's", ''),
  fc.string({ maxLength: 8 }),
);
const arbitraryValue: fc.Arbitrary<Value> = fc.oneof(
  arbitraryText.map((text) => ({ kind: 'literal' as const, text, column })),
  fc
    .constantFrom('currentUser' as const, 'openSprints' as const)
    .map((name) => ({ kind: 'function' as const, name, args: [], column })),
  fc
    .oneof(
      fc.tuple(fc.constant('startOfWeek' as const), fc.array(arbitraryText, { maxLength: 1 })),
      fc.tuple(fc.constant('linkedIssues' as const), fc.array(arbitraryText, { minLength: 1, maxLength: 2 })),
    )
    .map(([name, texts]) => ({
      kind: 'function' as const,
      name,
      args: texts.map((text) => ({ kind: 'literal' as const, text, column })),
      column,
    })),
);
const arbitraryField = fc.constantFrom(...FIELDS);
const arbitraryClause = fc.oneof(
  fc.record({
    kind: fc.constant('compare' as const),
    field: arbitraryField,
    op: fc.constantFrom(...COMPARE_OPERATORS),
    value: arbitraryValue,
    column: fc.constant(column),
  }),
  fc.record({
    kind: fc.constant('in' as const),
    field: arbitraryField,
    negated: fc.boolean(),
    values: fc.array(arbitraryValue, { minLength: 1, maxLength: 4 }),
    column: fc.constant(column),
  }),
  fc.record({ kind: fc.constant('empty' as const), field: arbitraryField, negated: fc.boolean(), column: fc.constant(column) }),
);
const arbitraryExpression: fc.Arbitrary<Expression> = fc.letrec<{ expression: Expression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    arbitraryClause,
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      operands: fc.array(tie('expression'), { minLength: 2, maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('expression'), column: fc.constant(column) }),
  ),
})).expression;
const arbitrarySortKey: fc.Arbitrary<SortKey> = fc.record({
  field: fc.constantFrom(...ORDER_FIELDS),
  direction: fc.constantFrom('ASC' as const, 'DESC' as const),
  column: fc.constant(column),
});
const arbitraryQuery: fc.Arbitrary<Query> = fc.record({
  where: fc.option(arbitraryExpression, { nil: null }),
  orderBy: fc.array(arbitrarySortKey, { maxLength: 3 }),
});

test('property: what the printer prints parses back to the same tree', () => {
  fc.assert(
    fc.property(arbitraryQuery, (query) => {
      const printed = printQuery(query);
      assert.equal(stripColumns(parseQuery(printed)), stripColumns(query), printed);
    }),
    { seed: 15, numRuns: 2_000 },
  );
});

test('the round-trip property can fail: a printer that drops parentheses is caught', () => {
  const broken = (query: Query) => printQuery(query).replace(/[()]/g, '');
  const caught = fc.check(
    fc.property(arbitraryQuery, (query) => {
      const printed = broken(query);
      let parsed: Query;
      try {
        parsed = parseQuery(printed);
      } catch {
        return false;
      }
      return JSON.stringify(stripColumns(parsed)) === JSON.stringify(stripColumns(query));
    }),
    { seed: 15, numRuns: 2_000 },
  );
  assert.ok(caught.failed);
});

// ---------------------------------------------------------------------------
// The engine against a naive one, on random issues and random queries
// ---------------------------------------------------------------------------

const PROJECTS = ['PROJ', 'WEB'];
const PEOPLE = ['alice', 'bob', 'carol', 'dmitri.k'];
const LABELS = ['checkout', 'backend', 'mobile'];
const WORDS = ['payment', 'refund', 'latency', 'e-mail', 'login', 'cache'];
const SPRINTS: { id: string; state: 'active' | 'closed' | 'future' }[] = [
  { id: 'PROJ-S1', state: 'closed' },
  { id: 'PROJ-S2', state: 'active' },
  { id: 'PROJ-S3', state: 'future' },
  { id: 'WEB-S1', state: 'active' },
];

/** A state of `count` random issues (every status, every empty field) from a fixed seed. */
function randomState(seed: number, count: number): TrackerState {
  const random = createRng(seed).next;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const drafts: RecordDraft[] = PROJECTS.map((key) => ({
    type: 'project.created' as const,
    project: { key, name: key, description: '', lead: 'alice' },
  }));
  for (const sprint of SPRINTS) {
    const project = sprint.id.slice(0, sprint.id.indexOf('-'));
    drafts.push({
      type: 'sprint.created',
      sprint: {
        id: sprint.id,
        name: `Sprint ${sprint.id}`,
        project,
        state: sprint.state,
        start_date: '2025-06-01',
        end_date: '2025-06-14',
        goal: '',
      },
    });
  }
  const issues: Issue[] = [];
  for (let n = 1; n <= count; n++) {
    const project = pick(PROJECTS);
    issues.push(randomIssue(random, `${project}-${n}`, n));
  }
  drafts.push(...issues.map((issue): RecordDraft => ({ type: 'issue.created', issue })));
  // Links of every type between random issues, and epics' children: what linkedIssues(), blockedIssues() and parent read.
  for (let i = 0; i < count / 4; i++) {
    const [from, to] = [pick(issues), pick(issues)];
    const link = pick(['blocks', 'relates_to', 'duplicates'] as const);
    if (from.key !== to.key && !drafts.some((d) => d.type === 'issue.linked' && d.key === from.key && d.to === to.key))
      drafts.push({ type: 'issue.linked', key: from.key, link, to: to.key });
  }
  const epics = issues.filter((issue) => issue.type === 'epic');
  for (const issue of issues) {
    if (issue.type !== 'epic' && random() < 0.3)
      drafts.push({ type: 'issue.parent_changed', key: issue.key, from: null, to: pick(epics).key });
  }
  const state = createEmptyState();
  drafts.forEach((draft, index) => applyRecord(state, { seq: index + 1, at: NOW.toISOString(), ...draft } as JournalRecord));
  return state;
}

/** A random issue with every field filled or empty by chance, created in the 30 days before NOW. */
function randomIssue(random: () => number, key: string, n: number): Issue {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const project = key.slice(0, key.indexOf('-'));
  const at = new Date(NOW.getTime() - Math.floor(random() * 30) * 86_400_000).toISOString();
  const sprints = SPRINTS.filter((s) => s.id.startsWith(`${project}-`)).map((s) => s.id);
  return {
    key,
    project,
    title: `${pick(WORDS)} ${pick(WORDS)}`,
    description: random() < 0.5 ? '' : `About ${pick(WORDS)}.`,
    type: pick(ISSUE_TYPES),
    status: STATUSES[n % STATUSES.length] as Issue['status'],
    resolution: STATUSES[n % STATUSES.length] === 'done' ? pick(RESOLUTIONS) : null,
    priority: pick(PRIORITIES),
    assignee: random() < 0.25 ? null : pick(PEOPLE),
    reporter: pick(PEOPLE),
    story_points: null,
    sprint: random() < 0.3 ? null : pick(sprints),
    labels: LABELS.filter(() => random() < 0.3),
    comments: random() < 0.2 ? [{ id: 1, author: 'bob', body: `Saw ${pick(WORDS)} again`, created_at: at }] : [],
    created_at: at,
    updated_at: at,
  };
}

/** Clauses of the fields and functions Jira users type (statusCategory, resolution, key, parent, links, ordered priority), over `state`'s issues. */
function jiraClause(state: TrackerState): fc.Arbitrary<string> {
  const keys = [...state.issues.keys()];
  const linked = [...state.links.keys()];
  const epics = keys.filter((key) => state.issues.get(key)?.type === 'epic');
  const linkTypes = ['blocks', '"is blocked by"', '"relates to"', 'duplicates', '"is duplicated by"'];
  return fc.oneof(
    fc.constantFrom(
      'statusCategory = "To Do"',
      'statusCategory IN ("In Progress", Done)',
      'statusCategory != done',
      'resolution = Unresolved',
      'resolution IS EMPTY',
      'resolution IS NOT EMPTY',
      'resolution IN (duplicate, "Won\'t Do")',
      'resolution != done',
      'resolution NOT IN (Unresolved, Fixed)',
      'parent IS EMPTY',
      'parent IS NOT EMPTY',
      'key IN blockedIssues()',
      'issue NOT IN blockingIssues()',
    ),
    fc
      .tuple(fc.constantFrom('<', '<=', '>', '>='), fc.constantFrom('P0', 'P1', 'p2', 'P3', 'Highest', 'High', 'Medium', 'Low'))
      .map(([op, value]) => `priority ${op} ${value}`),
    oneOf('key', keys.slice(0, 40), false),
    fc.tuple(fc.constantFrom('<', '<=', '>', '>='), fc.constantFrom(...keys)).map(([op, key]) => `key ${op} ${key}`),
    oneOf('parent', epics, true),
    fc
      .tuple(fc.boolean(), fc.constantFrom(...linked), fc.option(fc.constantFrom(...linkTypes), { nil: undefined }))
      .map(([not, key, type]) => `issue ${not ? 'NOT IN' : 'IN'} linkedIssues(${key}${type === undefined ? '' : `, ${type}`})`),
  );
}

/** A text search in one part of the text, or not in it, with Jira's wildcard sometimes. */
const textPartClause = fc
  .tuple(
    fc.constantFrom('summary', 'description', 'comment', 'text'),
    fc.constantFrom('~', '!~'),
    fc.subarray([...WORDS, 'pay*', 'AIL', 'saw'], { minLength: 1, maxLength: 2 }),
  )
  .map(([field, op, words]) => `${field} ${op} "${words.join(' ')}"`);

/**
 * Random queries that mean something: values the data has, operators their fields take.
 * indexedOnly: only clauses the indexes answer exactly (no word like "e-mail").
 */
function arbitraryMeaningfulQuery(state: TrackerState, indexedOnly = false): fc.Arbitrary<string> {
  const dateClause = fc
    .tuple(
      fc.constantFrom('created', 'updated'),
      fc.constantFrom('=', '!=', '<', '<=', '>', '>='),
      fc.constantFrom('-7d', '-2w', '2025-06-10', '2025-06-01T12:00:00.000Z'),
    )
    .map(([field, op, value]) => `${field} ${op} ${value}`);
  const clause = fc.oneof(
    oneOf('project', PROJECTS, false),
    oneOf('status', STATUSES, false),
    oneOf('priority', PRIORITIES, false),
    oneOf('type', ISSUE_TYPES, false),
    oneOf('assignee', PEOPLE, true),
    oneOf('reporter', PEOPLE, false),
    oneOf(
      'sprint',
      SPRINTS.map((s) => s.id),
      true,
    ),
    oneOf('labels', LABELS, true),
    fc.constantFrom('sprint IN openSprints()', 'assignee = currentUser()', 'reporter != currentUser()'),
    dateClause,
    jiraClause(state),
    ...(indexedOnly ? [] : [textPartClause]),
    fc
      .subarray(indexedOnly ? ['payment', 'refund', 'pay', 'AIL', 'saw'] : [...WORDS, 'pay', 'AIL', 'saw'], {
        minLength: 1,
        maxLength: 2,
      })
      .map((words) => `text ~ "${words.join(' ')}"`),
  );
  const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small' },
      clause,
      fc.tuple(tie('e'), fc.constantFrom('AND', 'OR'), tie('e')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
      tie('e').map((e) => `NOT (${e})`),
    ),
  })).e;
  const order = fc.array(fc.tuple(fc.constantFrom(...ORDER_FIELDS), fc.constantFrom('ASC', 'DESC')), { maxLength: 3 });
  return fc
    .tuple(fc.option(expression, { nil: '' }), order)
    .map(([where, keys]) =>
      keys.length === 0
        ? where
        : `${where} ORDER BY ${keys.map(([field, direction]) => `${field} ${direction}`).join(', ')}`.trim(),
    );
}

/**
 * The naive engine: every issue, every clause read straight from the tree, a plain sort. It
 * shares only the parser with the real one, and knows the data's values by their spelling.
 */
function naiveQuery(state: TrackerState, text: string): string[] {
  const query = parseQuery(text);
  const issues = [...state.issues.values()].sort((a, b) =>
    a.project < b.project ? -1 : a.project > b.project ? 1 : keyNumber(a) - keyNumber(b),
  );
  const matching = issues.filter((issue) => query.where === null || naiveMatches(state, issue, query.where));
  return matching.sort((a, b) => naiveCompare(a, b, query.orderBy)).map((issue) => issue.key);
}

const keyNumber = (issue: Issue): number => Number(issue.key.split('-')[1]);

function naiveMatches(state: TrackerState, issue: Issue, e: Expression): boolean {
  switch (e.kind) {
    case 'and':
      return e.operands.every((o) => naiveMatches(state, issue, o));
    case 'or':
      return e.operands.some((o) => naiveMatches(state, issue, o));
    case 'not':
      return !naiveMatches(state, issue, e.operand);
    case 'empty': {
      const empty =
        e.field === 'labels'
          ? issue.labels.length === 0
          : (issue[e.field as 'assignee' | 'sprint' | 'parent' | 'resolution'] ?? null) === null;
      return empty !== e.negated;
    }
    case 'in': {
      const wanted = e.values.flatMap((v) => naiveValues(state, v));
      return naiveHas(issue, e.field as string, wanted) !== e.negated;
    }
    case 'compare': {
      const value = naiveValues(state, e.value)[0] as string;
      if (['text', 'summary', 'description', 'comment'].includes(e.field as string)) {
        const parts = { summary: [issue.title], description: [issue.description], comment: issue.comments.map((c) => c.body) };
        const texts = (parts[e.field as keyof typeof parts] ?? [issue.title, issue.description, ...parts.comment]).map((t) =>
          t.toLowerCase(),
        );
        const found = value
          .toLowerCase()
          .split(/\s+/)
          .map((word) => word.replace(/^\*+|\*+$/g, ''))
          .every((word) => texts.some((t) => t.includes(word)));
        return e.op === '!~' ? !found : found;
      }
      if (e.field === 'created' || e.field === 'updated')
        return naiveDate(e.field === 'created' ? issue.created_at : issue.updated_at, e.op, value);
      if (e.field === 'priority' && e.op !== '=' && e.op !== '!=') return naivePriority(issue.priority, e.op, value);
      if (e.field === 'key' && e.op !== '=' && e.op !== '!=') {
        const [project, number] = value.split('-');
        const ops: Record<string, (a: number, b: number) => boolean> = {
          '<': (a, b) => a < b,
          '<=': (a, b) => a <= b,
          '>': (a, b) => a > b,
          '>=': (a, b) => a >= b,
        };
        return issue.project === project && (ops[e.op] as (a: number, b: number) => boolean)(keyNumber(issue), Number(number));
      }
      const has = naiveHas(issue, e.field as string, [value]);
      return e.op === '=' ? has : !has;
    }
  }
}

/** The values a value names, as the data spells them; for key, the keys a function gives. */
function naiveValues(state: TrackerState, value: Value): string[] {
  if (value.kind === 'literal') return [value.text];
  switch (value.name) {
    case 'currentUser':
      return ['alice'];
    case 'openSprints':
      return SPRINTS.filter((s) => s.state !== 'closed').map((s) => s.id);
    case 'linkedIssues': {
      const [of, type] = value.args.map((arg) => arg.text.toLowerCase().replace(/ /g, '_'));
      return (state.links.get(of?.toUpperCase() as string) ?? [])
        .filter((l) => type === undefined || l.type === type)
        .map((l) => l.key);
    }
    case 'blockedIssues':
      return [...state.issues.values()]
        .filter((issue) =>
          (state.links.get(issue.key) ?? []).some(
            (l) => l.type === 'is_blocked_by' && state.issues.get(l.key)?.status !== 'done',
          ),
        )
        .map((issue) => issue.key);
    case 'blockingIssues':
      return [...state.issues.values()]
        .filter(
          (issue) =>
            issue.status !== 'done' &&
            (state.links.get(issue.key) ?? []).some((l) => l.type === 'blocks' && state.issues.get(l.key)?.status !== 'done'),
        )
        .map((issue) => issue.key);
    default:
      throw new Error(`the naive engine has no ${value.name}()`);
  }
}

const CATEGORIES: Record<string, readonly string[]> = {
  'to do': ['todo', 'reopened'],
  'in progress': ['in_progress', 'in_review', 'blocked'],
  done: ['done'],
};
const RESOLUTION_NAMES: Record<string, string | null> = {
  unresolved: null,
  "won't do": 'wont_do',
  fixed: 'done',
  duplicate: 'duplicate',
  done: 'done',
};

function naiveHas(issue: Issue, field: string, values: string[]): boolean {
  if (field === 'labels') return issue.labels.some((label) => values.includes(label));
  if (field === 'statusCategory') return values.some((v) => CATEGORIES[v.toLowerCase()]?.includes(issue.status));
  if (field === 'resolution') return values.some((v) => RESOLUTION_NAMES[v.toLowerCase()] === (issue.resolution ?? null));
  if (field === 'key') return values.some((v) => v.toUpperCase() === issue.key);
  return values.includes(String(issue[field as keyof Issue]));
}

/** P-levels compare by number (P0 < P1), Jira's names by urgency (Highest > High). */
function naivePriority(priority: string, op: string, value: string): boolean {
  const names: Record<string, number> = { highest: 0, high: 1, medium: 2, low: 3 };
  const byNumber = /^p\d$/i.test(value);
  const [a, b] = byNumber
    ? [Number(priority[1]), Number(value[1])]
    : [-Number(priority[1]), -(names[value.toLowerCase()] as number)];
  return { '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b }[op] as boolean;
}

function naiveDate(at: string, op: string, value: string): boolean {
  const units: Record<string, number> = { d: 86_400_000, w: 7 * 86_400_000 };
  const relative = /^-(\d+)([dw])$/.exec(value);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const from = relative
    ? NOW.getTime() - Number(relative[1]) * (units[relative[2] as string] as number)
    : Date.parse(day ? `${value}T00:00:00.000Z` : value);
  const until = day ? from + 86_400_000 : from + 1;
  const t = Date.parse(at);
  return {
    '=': t >= from && t < until,
    '!=': t < from || t >= until,
    '<': t < from,
    '<=': t < until,
    '>': t >= until,
    '>=': t >= from,
  }[op] as boolean;
}

function naiveCompare(a: Issue, b: Issue, keys: readonly SortKey[]): number {
  const rankOf: Record<string, readonly string[]> = { status: STATUSES, priority: PRIORITIES, type: ISSUE_TYPES };
  for (const key of keys) {
    const sign = key.direction === 'DESC' ? -1 : 1;
    const [x, y] = [naiveSortValue(a, key.field, rankOf), naiveSortValue(b, key.field, rankOf)];
    if (x !== y) return sign * (x < y ? -1 : 1);
  }
  return a.project < b.project ? -1 : a.project > b.project ? 1 : keyNumber(a) - keyNumber(b);
}

/** A sortable string: ranks padded, empty as the highest value. */
function naiveSortValue(issue: Issue, field: string, rankOf: Record<string, readonly string[]>): string {
  if (field === 'key') return `${issue.project} ${String(keyNumber(issue)).padStart(9, '0')}`;
  if (field === 'created' || field === 'updated') return field === 'created' ? issue.created_at : issue.updated_at;
  const value = issue[field as keyof Issue] as string | null;
  if (value === null) return '\uffff';
  if (field === 'sprint') return `${value.split('-')[0]} ${value.split('-S')[1]?.padStart(9, '0')}`;
  const ranks = rankOf[field];
  return ranks === undefined ? value : String(ranks.indexOf(value)).padStart(3, '0');
}

/** The engine's page of `query` from `offset` is the naive engine's, with the same total. */
function answersAsNaive(state: TrackerState, query: string, offset: number, limit = 100): void {
  const expected = naiveQuery(state, query);
  const answer = runQuery(state, query, CONTEXT, { offset, limit });
  assert.is(answer.total, expected.length, query);
  assert.equal(
    answer.items.map((issue) => issue.key),
    expected.slice(offset, offset + limit),
    query,
  );
}

for (const seed of [1, 2, 3]) {
  test(`fuzz (seed ${seed}): random queries answer as the naive engine does, in the same order`, () => {
    const state = randomState(seed, 400);
    fc.assert(
      fc.property(arbitraryMeaningfulQuery(state), fc.nat(30), (query, offset) => {
        answersAsNaive(state, query, offset);
      }),
      { seed, numRuns: 300 },
    );
  });
}

/** A query with two words to find ANDed in front of it: each word is one side of the AND (exact.ts). */
function withTwoWords(query: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const words = fc.subarray(['payment', 'refund', 'pay', 'about', 'saw', 'latency'], { minLength: 2, maxLength: 2 });
  return fc.tuple(words, query).map(([[a, b], rest]) => {
    const at = rest.indexOf('ORDER BY');
    const [where, order] = at === -1 ? [rest, ''] : [rest.slice(0, at).trim(), rest.slice(at)];
    return `text ~ "${a} ${b}"${where === '' ? '' : ` AND (${where})`} ${order}`.trim();
  });
}

test('fuzz: queries the indexes answer exactly (exact.ts, no evaluator) answer as the naive engine does', () => {
  const state = randomState(5, 400);
  const seen = { exact: 0, dates: 0, words: 0, negated: 0, walked: 0 };
  const queries = fc.oneof(arbitraryMeaningfulQuery(state, true), withTwoWords(arbitraryMeaningfulQuery(state, true)));
  fc.assert(
    fc.property(queries, fc.nat(30), fc.constantFrom(5, 100), (query, offset, limit) => {
      const { where, orderBy } = parseQuery(query);
      const matches = where === null ? null : exactMatches(state, resolve(state, where, CONTEXT, { idsWithValue }));
      if (matches !== null) {
        seen.exact += 1;
        const printed = printQuery({ where, orderBy: [] });
        if (/created|updated/.test(printed)) seen.dates += 1;
        if (/text ~ "\S+ \S+"/.test(query)) seen.words += 1;
        if (/^NOT |!=|NOT IN|IS NOT/.test(printed)) seen.negated += 1;
        // walk-order.ts walks an index from this many matches on (worthSorting).
        const count = countBits(matches);
        if (orderBy.length > 0 && orderBy[0]?.field !== 'key' && count * count >= (offset + limit) * state.issues.size)
          seen.walked += 1;
      }
      answersAsNaive(state, query, offset, limit);
    }),
    { seed: 5, numRuns: 400 },
  );
  // Each fast path was taken many times (no condition takes none): the property is about them.
  for (const [path, count] of Object.entries(seen)) assert.ok(count > 10, `${path}: ${count} of 400`);
});

/** A change a journal could hold: an assignment or a comment, later than any before or (`past`) sometimes earlier; or a new issue. */
function randomChange(state: TrackerState, random: () => number, seq: number, past: boolean): JournalRecord {
  const keys = [...state.issues.keys()];
  const issue = state.issues.get(keys[Math.floor(random() * keys.length)] as string) as Issue;
  // An earlier time is one the time index cannot append: it drops the index for a rebuild.
  const earlier = past && random() < 1 / 6;
  const at = new Date(NOW.getTime() + (earlier ? -Math.floor(random() * 20) * 86_400_000 : seq * 60_000)).toISOString();
  const choice = random();
  if (choice < 0.4) {
    const to = random() < 0.25 ? null : (PEOPLE[Math.floor(random() * PEOPLE.length)] as string);
    return { seq, at, type: 'issue.assigned', key: issue.key, from: issue.assignee, to };
  }
  if (choice < 0.8) {
    const body = `Now ${WORDS[Math.floor(random() * WORDS.length)]} and zz${seq}`;
    const comment = { id: issue.comments.length + 1, author: 'carol', body, created_at: at };
    return { seq, at, type: 'issue.commented', key: issue.key, comment };
  }
  const project = PROJECTS[Math.floor(random() * PROJECTS.length)] as string;
  const n = state.nextIssueNumber.get(project) ?? 1;
  return {
    seq,
    at,
    type: 'issue.created',
    issue: { ...randomIssue(random, `${project}-${n}`, n), created_at: at, updated_at: at },
  };
}

test('fuzz: indexes built by earlier queries follow random changes (new words, moved times, holes) and answer as the naive engine does', () => {
  const state = randomState(6, 300);
  const random = createRng(6).next;
  const queries = fc.sample(fc.tuple(arbitraryMeaningfulQuery(state), fc.nat(30)), { seed: 6, numRuns: 320 });
  // Every round also asks these, which read the time indexes whole: a stale or lost key shows.
  const timeQueries = [
    'updated >= -7d',
    'updated != 2025-06-10',
    'ORDER BY updated DESC',
    'created < 2025-06-10 ORDER BY created',
  ];
  let seq = state.lastSeq;
  // Changes from the past only every eighth round: between them the index lives long enough to
  // leave more holes than keys, which compacts it.
  for (let round = 0; round < 16; round++) {
    for (const [query, offset] of queries.slice(round * 20, round * 20 + 20)) answersAsNaive(state, query, offset);
    for (let i = 1; i <= 80; i++) {
      applyRecord(state, randomChange(state, random, (seq += 1), round % 8 === 7));
      // Right after each change: a key the index lost would drop it at that key's next change, and hide.
      for (const query of timeQueries) answersAsNaive(state, query, (round + i) % 40);
    }
  }
  for (const [query, offset] of queries) answersAsNaive(state, query, offset);
});

test('the fuzz can fail: an engine that forgets the tie-break order is caught', () => {
  const state = randomState(1, 400);
  const keys = runQuery(state, 'ORDER BY status', CONTEXT, { offset: 0, limit: 100 }).items.map((i) => i.key);
  // Issues of one status in reverse key order are still sorted by status, but not in the total order.
  const shuffled = [...keys]
    .reverse()
    .sort((a, b) => STATUSES.indexOf(state.issues.get(a)!.status) - STATUSES.indexOf(state.issues.get(b)!.status));
  assert.equal(keys, naiveQuery(state, 'ORDER BY status').slice(0, 100));
  assert.not.equal(shuffled, naiveQuery(state, 'ORDER BY status').slice(0, 100));
});

// ---------------------------------------------------------------------------
// Values against the store: forgiving spelling, no silent empties
// ---------------------------------------------------------------------------

test('values are read the way the store reads them; unknown projects, people and sprints are errors naming the known ones', () => {
  const state = randomState(4, 50);
  const run = (query: string) => runQuery(state, query, CONTEXT, { offset: 0, limit: 100 });
  assert.is(run('status = "In Review"').total, run('status = in_review').total);
  assert.is(run('status = in-review AND project = proj').total, run('status = in_review AND project = PROJ').total);
  assert.is(run('sprint = "Sprint PROJ-S2"').total, run('sprint = proj-s2').total);
  const cases: [string, string][] = [
    ['project = NOPE', "Unknown project 'NOPE' at column 11. Projects: PROJ, WEB."],
    ['assignee IN (alice, zed)', "Unknown user 'zed' at column 21. People: alice, bob, carol, dmitri.k."],
    [
      'sprint = PROJ-S9',
      "Unknown sprint 'PROJ-S9' at column 10. Sprints: PROJ-S1 (closed), PROJ-S2 (active), PROJ-S3 (future), WEB-S1 (active).",
    ],
    ['status = doing', `Unknown status 'doing' at column 10. Use one of: ${STATUSES.join(', ')}.`],
    ['priority = urgent', `Unknown priority 'urgent' at column 12. Use one of: ${PRIORITIES.join(', ')}.`],
    ['status IS EMPTY', 'status is never empty at column 1. Fields that can be: assignee, sprint, labels, parent, resolution.'],
    ['status ~ todo', "status takes =, !=, IN, NOT IN or IS EMPTY, not '~' at column 1."],
    ['text = pay', "text takes only '~' or '!~' at column 1. Write text ~ \"words\"."],
    [
      'created > yesterday',
      "'yesterday' is not a date at column 11. Write a day (2025-06-01), a time (2025-06-01T09:30:00.000Z), a time from now (-7d, -2w, -12h, -30m, -1M) or startOfWeek().",
    ],
    [
      'created > 2025-02-30',
      "'2025-02-30' is not a date at column 11. Write a day (2025-06-01), a time (2025-06-01T09:30:00.000Z), a time from now (-7d, -2w, -12h, -30m, -1M) or startOfWeek().",
    ],
    ['sprint = openSprints()', 'openSprints() is a list at column 10. Write sprint IN openSprints().'],
    ['project IN openSprints()', 'openSprints() is a list of sprints: use it with sprint IN at column 12.'],
    ['text ~ "   "', 'text ~ needs at least one word at column 8.'],
  ];
  for (const [query, message] of cases)
    assert.is(
      failure(() => run(query)),
      message,
      query,
    );
  const nobody = { now: NOW, user: null };
  assert.is(
    failure(() => runQuery(state, 'assignee = currentUser()', nobody, { offset: 0, limit: 1 })),
    'currentUser() is not known at column 12. Start the server with --user NAME or set MCP_TRACKER_USER.',
  );
  // A user with no issues yet is who they are: an empty answer, not an error.
  assert.is(runQuery(state, 'assignee = currentUser()', { now: NOW, user: 'newcomer' }, { offset: 0, limit: 1 }).total, 0);
});

// ---------------------------------------------------------------------------
// The indexes follow every change
// ---------------------------------------------------------------------------

test('indexes built by a first query follow later changes, ours and another process’s, as a fresh open sees them', async () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-jql-'));
  directories.push(directory);
  const file = path.join(directory, 'tracker.jsonl');
  const store = await openStore({ path: file, log: () => {}, watch: false, user: 'alice' });
  const other = await openStore({ path: file, log: () => {}, watch: false });
  const queries = [
    'status = done AND assignee = bob',
    'text ~ zanzibar',
    'assignee = currentUser() ORDER BY status DESC',
    'labels IS EMPTY',
  ];
  const answers = (s: typeof store) => queries.map((query) => s.searchIssues({ query, limit: 100 }).items.map((i) => i.key));
  answers(store); // builds the indexes
  await store.updateStatus('PROJ-101', 'in_review');
  await store.updateStatus('PROJ-101', 'done');
  await store.assignIssue('PROJ-101', 'bob');
  await other.addComment('PROJ-102', { body: 'Seen in Zanzibar too', author: 'carol' });
  await other.assignIssue('PROJ-103', 'alice');
  const { issue } = await store.createIssue({ project: 'PROJ', title: 'Zanzibar office printer', assignee: 'alice' });
  store.refresh();
  const fresh = await openStore({ path: file, log: () => {}, watch: false, user: 'alice' });
  assert.equal(answers(store), answers(fresh));
  assert.ok(answers(store)[0]?.includes('PROJ-101'));
  assert.equal(answers(store)[1], ['PROJ-102', issue.key]);
  for (const s of [store, other, fresh]) s.close();
});

test.run();
