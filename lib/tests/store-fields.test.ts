// Fields beyond the built-in ones (issue 33): a project defines its components, versions and
// custom fields; issues carry a due date, components, fix versions and those fields, checked on
// every write with the field and what it accepts named; JQL searches them; get_issue, the JSON
// export and a reopened journal (replayed or from its snapshot) keep them.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, type TrackerStore } from '../store/index.js';
import { FIELDS, FIELD_ALIASES } from '../store/queries/jql/ast.js';
import { RESERVED_FIELD_NAMES } from '../store/model/fields.js';
import { demoStores, domainFailure } from './demo-stores.js';

const demo = demoStores('tracker-fields');
test.after(demo.removeAll);

const PROJ_FIELDS = {
  components: ['api', 'Web UI', 'billing'],
  versions: ['2.1', '2.2'],
  custom: [
    { name: 'Story Type', type: 'select', options: ['Research', 'Build', 'Spike'] },
    { name: 'Platforms', type: 'multiselect', options: ['iOS', 'Android', 'Web'] },
    { name: 'Hours', type: 'number' },
    { name: 'Release Notes', type: 'text' },
    { name: 'Signed Off', type: 'date' },
  ],
};

/** The demo store with PROJ's fields defined and four issues given values. */
async function withFields(): Promise<TrackerStore> {
  return giveFields(await demo.open());
}

/** PROJ's and WEB's fields defined on a demo store, and four issues given values. */
async function giveFields(store: TrackerStore): Promise<TrackerStore> {
  await store.defineFields('PROJ', PROJ_FIELDS);
  await store.defineFields('WEB', { components: ['api', 'frontend'], custom: [{ name: 'Story Type', type: 'text' }] });
  await store.updateIssue('PROJ-101', {
    fields: { due: '2025-06-10', components: ['API', 'billing'], 'story type': 'research', Hours: 3.5 },
  });
  await store.updateIssue('PROJ-102', {
    fields: { due: '2025-06-20', fix_versions: ['2.1'], Platforms: ['ios', 'Web'], 'Release Notes': 'Faster checkout on iOS' },
  });
  await store.updateIssue('PROJ-103', {
    fields: { components: 'Web UI', 'Story Type': 'Build', Hours: 8, 'Signed Off': '2025-06-01' },
  });
  await store.updateIssue('WEB-1', { fields: { components: ['frontend'], 'Story Type': 'Research notes', due: '2025-06-16' } });
  return store;
}

const keys = (store: TrackerStore, query: string): string[] =>
  store.searchIssues({ query, limit: 100 }).items.map((issue) => issue.key);

test('values are kept as the project spells them, in name order, and shown by get_issue', async () => {
  const store = await withFields();
  assert.equal(store.getIssue('PROJ-101').fields, {
    Hours: 3.5,
    'Story Type': 'Research',
    components: ['api', 'billing'],
    due: '2025-06-10',
  });
  assert.is(store.getIssue('PROJ-104').fields, undefined, 'an issue without fields has none');
  assert.ok(!('fields' in store.getIssue('PROJ-104')), 'and its JSON stays as it was');
  const created = await store.createIssue({
    project: 'PROJ',
    title: 'With fields',
    fields: { fix_versions: ['2.2'], due: '2025-07-01' },
  });
  assert.equal(created.issue.fields, { due: '2025-07-01', fix_versions: ['2.2'] });
  const cleared = await store.updateIssue('PROJ-101', { fields: { due: null, components: [], Hours: 4 } });
  assert.equal(cleared.issue.fields, { Hours: 4, 'Story Type': 'Research' });
  assert.is(cleared.change.description, 'PROJ-101 edited: fields');
  const same = await store.updateIssue('PROJ-101', { fields: { hours: 4 } });
  assert.equal(same.change.issues, [], 'a value it already has changes nothing');
  store.close();
});

test('every write is checked: the refusal names the field and what it accepts, and writes nothing', async () => {
  const store = await withFields();
  const size = fs.statSync(store.path).size;
  const refusals: [Record<string, unknown>, string][] = [
    [{ components: ['backend'] }, 'Invalid components "backend": components takes a list of up to 20 of: api, Web UI, billing.'],
    [{ fix_versions: '3.0' }, 'Invalid fix_versions "3.0": fix_versions takes a list of up to 20 of: 2.1, 2.2.'],
    [{ due: '2025-02-30' }, 'Invalid due "2025-02-30": due takes a day such as 2026-12-31.'],
    [{ 'Story Type': 'Chore' }, 'Invalid "Story Type" "Chore": "Story Type" takes one of: Research, Build, Spike.'],
    [{ Platforms: ['Linux'] }, 'Invalid "Platforms" "Linux": "Platforms" takes a list of up to 20 of: iOS, Android, Web.'],
    [{ Hours: 'three' }, 'Invalid "Hours" "three": "Hours" takes a number.'],
    [{ 'Signed Off': 'yesterday' }, 'Invalid "Signed Off" "yesterday": "Signed Off" takes a day such as 2026-12-31.'],
    [
      { Severity: 'high' },
      'Unknown field "Severity". PROJ\'s fields: due, components, fix_versions, "Story Type" (select), "Platforms" (multiselect), "Hours" (number), "Release Notes" (text), "Signed Off" (date).',
    ],
  ];
  for (const [fields, message] of refusals) {
    assert.is(await domainFailure(() => store.updateIssue('PROJ-104', { fields })), message, JSON.stringify(fields));
  }
  assert.match(
    await domainFailure(() => store.createIssue({ project: 'WEB', title: 'x', fields: { components: ['billing'] } })),
    'components takes a list of up to 20 of: api, frontend.',
  );
  assert.match(
    await domainFailure(() => store.createIssue({ project: 'PROJ', title: 'x', fields: ['due'] as never })),
    'fields must be an object',
  );
  assert.is(fs.statSync(store.path).size, size);
  store.close();
});

test('a definition that would orphan a value is refused with the issues; reserved and repeated names are refused', async () => {
  const store = await withFields();
  assert.match(
    await domainFailure(() => store.defineFields('PROJ', { components: ['api'] })),
    "The new definition of PROJ's fields would leave values it no longer allows on 2 issue(s): PROJ-101 (components: api, billing), PROJ-103 (components: Web UI).",
  );
  const custom = PROJ_FIELDS.custom.map((field) => (field.name === 'Hours' ? { ...field, type: 'text' } : field));
  assert.match(await domainFailure(() => store.defineFields('PROJ', { custom })), 'PROJ-101 ("Hours": 3.5)');
  assert.match(
    await domainFailure(() => store.defineFields('PROJ', { custom: [{ name: 'Status', type: 'text' }] })),
    '"Status" is a built-in field',
  );
  assert.match(
    await domainFailure(() => store.defineFields('PROJ', { versions: ['2.1', '2.1 '] })),
    'The version "2.1" is named twice.',
  );
  assert.match(
    await domainFailure(() => store.defineFields('PROJ', { custom: [{ name: 'Size', type: 'bucket' }] })),
    'Invalid type "bucket" of "Size": one of number, text, date, select, multiselect.',
  );
  // Adding is always allowed, and the parts not given stay.
  const added = await store.defineFields('PROJ', { versions: ['2.1', '2.2', '3.0'] });
  assert.equal(added.fields.components, PROJ_FIELDS.components);
  assert.equal(added.fields.versions, ['2.1', '2.2', '3.0']);
  assert.equal(
    (await store.defineFields('PROJ', { versions: ['2.1', '2.2', '3.0'] })).change.projects,
    [],
    'the same again: no change',
  );
  store.close();
});

test('JQL: due with dates and functions, component, fixVersion, custom fields by quoted name', async () => {
  const store = await openStore({
    path: `${fs.mkdtempSync('/tmp/tracker-fields-jql-')}/tracker.jsonl`,
    log: () => {},
    watch: false,
    now: () => new Date('2025-06-15T12:00:00.000Z'),
  });
  await giveFields(store);
  const answers: [string, string[]][] = [
    ['due < now()', ['PROJ-101']],
    // 2025-06-15 is a Sunday: the week ends tonight, WEB-1 is due on Monday.
    ['duedate <= endOfWeek()', ['PROJ-101']],
    ['due = 2025-06-20', ['PROJ-102']],
    ['due >= startOfWeek(1) ORDER BY key', ['PROJ-102', 'WEB-1']],
    ['due IS NOT EMPTY AND project = PROJ', ['PROJ-101', 'PROJ-102']],
    ['component = api', ['PROJ-101']],
    ['component IN ("Web UI", frontend)', ['PROJ-103', 'WEB-1']],
    ['component IS EMPTY AND project = PROJ AND key <= PROJ-104', ['PROJ-102', 'PROJ-104']],
    ['fixVersion = "2.1"', ['PROJ-102']],
    ['"Story Type" = Research', ['PROJ-101']],
    ['"story type" IN (research, build)', ['PROJ-101', 'PROJ-103']],
    ['"Story Type" ~ notes', ['WEB-1']],
    ['"Platforms" = web', ['PROJ-102']],
    ['"Hours" > 3.5', ['PROJ-103']],
    ['"Hours" >= 3.5', ['PROJ-101', 'PROJ-103']],
    ['"Release Notes" ~ "checkout ios"', ['PROJ-102']],
    ['"Signed Off" < 2025-06-02', ['PROJ-103']],
  ];
  for (const [query, expected] of answers) assert.equal(keys(store, query), expected, query);
  const total = keys(store, 'project = PROJ').length;
  assert.is(keys(store, 'project = PROJ AND component != api').length, total - 1, '!= is every other issue, empty ones too');
  const errors: [string, RegExp][] = [
    ['component = backend', /Unknown value 'backend' of component at column 13\. Use one of: api, Web UI, billing, frontend\./],
    ['"Platforms" = Linux', /Unknown value 'Linux' of "Platforms" at column 15\. Use one of: iOS, Android, Web\./],
    [
      '"Severity" = high',
      /Unknown field "Severity" at column 1\. Custom fields: "Hours", "Platforms", "Release Notes", "Signed Off", "Story Type"\./,
    ],
    ['"Hours" ~ 3', /"Hours" takes =, !=, <, <=, >, >=, IN, NOT IN or IS EMPTY, not '~' at column 1/],
    ['"Hours" > many', /'many' is not a number at column 11/],
    ['component > api', /component takes =, !=, IN, NOT IN or IS EMPTY, not '>'/],
    ['due = soon', /'soon' is not a date/],
    ['cf[10016] > 3', /Custom fields are named here, in quotes: "Story Type" = Research\./],
  ];
  for (const [query, message] of errors) assert.match(await domainFailure(() => keys(store, query)), message, query);
  store.close();
});

test('JQL names custom fields nothing else can: every JQL field is reserved', () => {
  for (const name of [...FIELDS, ...FIELD_ALIASES.keys()]) assert.ok(RESERVED_FIELD_NAMES.has(name.toLowerCase()), name);
});

test('kept across a reopen (replayed and from the snapshot) and in the JSON export', async () => {
  const store = await withFields();
  const file = store.path;
  const expected = { issue: store.getIssue('PROJ-102').fields, project: store.getProjectFields('PROJ') };
  store.close();
  for (const round of ['replayed', 'from its snapshot']) {
    if (round === 'replayed') fs.rmSync(`${file}.snapshot`, { force: true });
    const again = await demo.open(file);
    assert.equal(again.getIssue('PROJ-102').fields, expected.issue, round);
    assert.equal(again.getProjectFields('PROJ'), expected.project, round);
    assert.equal(keys(again, '"Story Type" = Research'), ['PROJ-101'], round);
    const snapshot = again.exportSnapshot();
    assert.equal(
      snapshot.fields?.map((entry) => entry.project),
      ['PROJ', 'WEB'],
    );
    assert.equal(snapshot.issues.find((issue) => issue.key === 'PROJ-102')?.fields, expected.issue);
    again.close();
  }
});

test.run();
