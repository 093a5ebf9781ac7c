// The journal reader's hand-written check must accept exactly what the zod
// schema accepts: the schema is the source of truth, the check is its fast
// copy. fast-check corrupts valid records in many ways and compares verdicts.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoRecords } from '../store/model/demo-data.js';
import { checkJournalHeader, checkJournalRecord } from '../store/model/record-check.js';
import { JournalHeaderSchema, JournalRecordSchema, type JournalRecord } from '../store/model/record-schema.js';
import type { Issue } from '../store/model/schema.js';

const AT = '2025-06-15T12:00:00.000Z';

const FIRST_ISSUE = demoRecords(new Date(AT)).flatMap((draft) =>
  draft.type === 'issue.created' ? [draft.issue] : [],
)[0] as Issue;

/** Valid records of every type: the demo data plus one of each mutation. */
const VALID: readonly JournalRecord[] = [
  ...demoRecords(new Date(AT)).map((draft, i) => ({ seq: i + 1, at: AT, ...draft }) as JournalRecord),
  { seq: 30, at: AT, by: 'dmitri.k', type: 'issue.status_changed', key: 'PROJ-101', from: 'todo', to: 'done' },
  { seq: 31, at: AT, type: 'issue.assigned', key: 'PROJ-101', from: null, to: 'alice' },
  { seq: 32, at: AT, type: 'issue.commented', key: 'PROJ-101', comment: { id: 3, author: 'bob', body: 'x', created_at: AT } },
  { seq: 33, at: AT, type: 'issue.sprint_changed', key: 'PROJ-101', from: 'PROJ-S42', to: null },
  { seq: 34, at: AT, type: 'issue.status_changed', key: 'PROJ-103', from: 'in_review', to: 'done', resolution: 'wont_do' },
  { seq: 35, at: AT, type: 'issue.linked', key: 'PROJ-101', link: 'blocks', to: 'PROJ-104' },
  { seq: 36, at: AT, type: 'issue.unlinked', key: 'PROJ-101', link: 'relates_to', to: 'PROJ-104' },
  { seq: 37, at: AT, type: 'issue.parent_changed', key: 'PROJ-111', from: null, to: 'PROJ-109' },
  {
    seq: 38,
    at: AT,
    type: 'issue.edited',
    key: 'PROJ-111',
    from: { title: 'Old', description: '', type: 'bug', priority: 'P1', story_points: null, labels: [] },
    to: { title: 'New', description: 'More', type: 'task', priority: 'P0', story_points: 3, labels: ['backend'] },
  },
  { seq: 39, at: AT, type: 'sprint.started', id: 'PROJ-S43' },
  { seq: 40, at: AT, type: 'sprint.closed', id: 'PROJ-S42', carried: ['PROJ-101', 'PROJ-104'], carried_to: 'PROJ-S43' },
  { seq: 41, at: AT, type: 'sprint.goal_changed', id: 'PROJ-S43', from: '', to: 'Wallets' },
  {
    seq: 43,
    at: AT,
    type: 'issue.attachment_added',
    key: 'PROJ-101',
    attachment: { name: 'shot-1.png', mime_type: 'image/png', content: 'iVBORw0=', author: 'carol', created_at: AT },
  },
  {
    seq: 44,
    at: AT,
    type: 'project.workflow_set',
    project: 'WEB',
    workflow: {
      statuses: [
        { id: 'todo', name: 'To Do', category: 'todo' },
        { id: 'code_review', name: 'Code Review', category: 'inprogress' },
        { id: 'done', name: 'Done', category: 'done' },
      ],
      transitions: { todo: ['code_review'], code_review: ['done', 'todo'], done: [] },
      resolutions: ['done', 'duplicate'],
      close_from_any_open: true,
    },
    mapping: { qa: 'code_review' },
  },
  {
    seq: 42,
    at: AT,
    type: 'issue.created',
    issue: { ...FIRST_ISSUE, key: 'PROJ-120', status: 'done', resolution: 'duplicate', parent: 'PROJ-109' },
  },
  {
    seq: 44,
    at: AT,
    type: 'project.fields_defined',
    project: 'PROJ',
    fields: {
      components: ['api', 'Web UI'],
      versions: ['2.1'],
      custom: [
        { name: 'Story Type', type: 'select', options: ['Research', 'Build'] },
        { name: 'Hours', type: 'number' },
      ],
    },
  },
  {
    seq: 45,
    at: AT,
    type: 'issue.created',
    issue: {
      ...FIRST_ISSUE,
      key: 'PROJ-121',
      fields: { components: ['api'], due: '2026-12-31', Hours: 2.5, 'Story Type': 'Research' },
    },
  },
  {
    seq: 46,
    at: AT,
    type: 'issue.edited',
    key: 'PROJ-121',
    from: { fields: { due: '2026-12-31' } },
    to: { fields: null },
  },
];

/** Values that sit on the edges of the rules. */
const EDGE_VALUES: readonly unknown[] = [
  null,
  '',
  ' ',
  'x',
  'todo',
  'done',
  'P0',
  'p0',
  'bug',
  'active',
  'PROJ',
  'proj',
  'PROJ-1',
  'PROJ-0',
  'PROJ-S42',
  'alice',
  'Alice',
  'a'.repeat(32),
  'a'.repeat(33),
  'x'.repeat(200),
  'x'.repeat(201),
  '2025-06-15',
  '2025-06-15T12:00:00Z',
  AT,
  0,
  -0,
  1,
  -1,
  1.5,
  100,
  101,
  2 ** 53,
  2 ** 60,
  true,
  [],
  ['backend'],
  ['Backend'],
  {},
  { id: 1 },
  'issue.created',
  'A-1',
  'AB-1',
  'ABCDEFGHIJK-1',
  'PROJ-1234567890123456789',
  'PROJ-999999999',
  'PROJ-1000000000',
  'PROJ-99999999999999999',
  'aGk=',
  'aGk',
  'a*k=',
  'A'.repeat(699_052),
  'A'.repeat(699_056),
  'image/png',
  'Image/PNG',
  '.hidden',
  'Web UI',
  'a,b',
  'multiselect',
  ['api', 'api'],
  'alice@example.com',
  'alice@example',
  'alice @example.com',
];

/** Every path to a value inside a record: ['issue', 'labels', 0], ... */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Object.entries(value).flatMap(([key, child]) =>
    pathsOf(child, [...prefix, Array.isArray(value) ? Number(key) : key]),
  );
  return [prefix, ...children];
}

type Edit = { kind: 'set'; value: unknown } | { kind: 'delete' } | { kind: 'extra'; value: unknown };

function edited(record: JournalRecord, path: Array<string | number>, edit: Edit): unknown {
  const copy = structuredClone(record) as unknown;
  if (path.length === 0) return edit.kind === 'set' ? edit.value : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (edit.kind === 'set') parent[last] = edit.value;
  else if (edit.kind === 'delete') delete parent[last];
  else if (typeof parent[last] === 'object' && parent[last] !== null)
    (parent[last] as Record<string, unknown>)['extra'] = edit.value;
  return copy;
}

const editArbitrary: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), value: fc.constantFrom(...EDGE_VALUES) }),
  fc.record({ kind: fc.constant('set' as const), value: fc.jsonValue() }),
  fc.constant({ kind: 'delete' as const }),
  fc.record({ kind: fc.constant('extra' as const), value: fc.jsonValue() }),
);

const caseArbitrary = fc
  .constantFrom(...VALID)
  .chain((record) =>
    fc.tuple(fc.constant(record), fc.constantFrom(...pathsOf(record)), fc.array(editArbitrary, { minLength: 1, maxLength: 2 })),
  );

test('every valid record passes both checks', () => {
  for (const record of VALID) {
    assert.is(checkJournalRecord(record), null, JSON.stringify(record));
    assert.ok(JournalRecordSchema.safeParse(record).success);
  }
});

test('the hand check and the zod schema agree on corrupted records', () => {
  fc.assert(
    fc.property(caseArbitrary, ([record, path, edits]) => {
      const candidate = edits.reduce<unknown>((value, edit) => edited(value as JournalRecord, path, edit), record);
      const byHand = checkJournalRecord(candidate) === null;
      const byZod = JournalRecordSchema.safeParse(candidate).success;
      return byHand === byZod;
    }),
    { numRuns: 3_000, seed: 42 },
  );
});

test('the header: the hand check and the zod schema agree', () => {
  const valid = { format: 'mcp-tracker', version: 1, created_at: '2025-06-01T09:00:00.000Z' };
  const cases: unknown[] = [
    valid,
    { ...valid, version: 2 },
    { ...valid, extra: true },
    { ...valid, format: 'other' },
    { ...valid, version: 0 },
    { ...valid, version: 1.5 },
    { ...valid, version: '1' },
    { ...valid, created_at: '2025-06-01' },
    { format: 'mcp-tracker', version: 1 },
    [valid],
    null,
  ];
  for (const value of cases)
    assert.is(checkJournalHeader(value) === null, JournalHeaderSchema.safeParse(value).success, JSON.stringify(value));
  assert.is(checkJournalHeader({ ...valid, version: 0 }), 'version: expected an integer 1..9007199254740991');
});

test('the hand check names the field it rejects', () => {
  const record = VALID.find((r) => r.type === 'issue.created');
  const broken = edited(record as JournalRecord, ['issue', 'labels', 1], { kind: 'set', value: 'Not A Label' });
  assert.match(checkJournalRecord(broken) ?? '', /^issue\.labels\[1\]: does not match/);
  assert.is(
    checkJournalRecord({ type: 'issue.deleted' }),
    'type: expected one of project.created, sprint.created, project.workflow_set, issue.created, issue.status_changed, issue.assigned, issue.commented, issue.sprint_changed, issue.linked, issue.unlinked, issue.parent_changed, issue.edited, issue.attachment_added, sprint.started, sprint.closed, sprint.goal_changed, project.fields_defined, person.saved',
  );
});

test.run();
