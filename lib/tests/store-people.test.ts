// The people directory (issue 32): a person has a handle, a display name, an e-mail and aliases
// (a Jira account id); any of them finds the handle; a name nobody goes by is refused with the
// closest handles ("did you mean") and the people there are, and writes nothing. Runs against
// PostgreSQL too when MCP_TEST_STORE_BACKEND=postgres (store-postgres.test.ts runs it so).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { importSnapshot } from '../store/exchange/snapshot-import.js';
import { parseSnapshot } from '../store/model/snapshot-format.js';
import { openStore, type TrackerStore } from '../store/index.js';
import { openPostgresStore } from '../store/postgres/index.js';
import { domainFailure } from './demo-stores.js';
import { ON_POSTGRES, storePlaces } from './store-places.js';

const PEOPLE =
  'People: alice (Alice Smith), bob (Bob Jones), carol (Carol Diaz), dmitri (Dmitri Kuznetsov), priya (Priya Patel).';

const places = storePlaces('tracker-people');
test.after(() => places.removeAll());
const tempPlace = places.place;

async function openDemo(place?: string, seed = true): Promise<TrackerStore> {
  const where = place ?? (await tempPlace());
  if (ON_POSTGRES) return openPostgresStore({ url: where, shown: 'the test database', log: () => {}, watch: false, seed });
  return openStore({ path: where, log: () => {}, watch: false, seed });
}

/** How much the store holds: a refused command must leave it as it was. */
const written = (store: TrackerStore): string => JSON.stringify(store.exportSnapshot()) + JSON.stringify(store.listPeople());

test("the demo's people, by handle: display name, e-mail, aliases and issues assigned", async () => {
  const store = await openDemo();
  const { people, total } = store.listPeople();
  assert.is(total, 5);
  assert.equal(
    people.map((p) => p.handle),
    ['alice', 'bob', 'carol', 'dmitri', 'priya'],
  );
  assert.equal(people[0], {
    handle: 'alice',
    name: 'Alice Smith',
    email: 'alice.smith@example.com',
    aliases: ['5b10a2844c20165700ede21g'],
    assigned: 3,
  });
  store.close();
});

test('any name a person goes by is their handle: display name, e-mail, alias, in any case and spacing', async () => {
  const store = await openDemo();
  const names = [
    ['alice', 'alice'],
    [' Alice ', 'alice'],
    ['alice  SMITH', 'alice'],
    ['Bob.Jones@example.com', 'bob'],
    ['5b10ac8d82e05b22cc7d4ef5', 'bob'],
    ['Priya Patel', 'priya'],
  ];
  for (const [name, handle] of names) assert.is(store.personHandle(name as string), handle, name);
  store.close();
});

test('a name nobody goes by is refused: the closest handles, then the people', async () => {
  const store = await openDemo();
  const refusals = [
    ['zed', `No one called "zed" is known to the tracker. ${PEOPLE}`],
    ['alise', `No one called "alise" is known to the tracker. Did you mean alice? ${PEOPLE}`],
    ['Priya Patl', `Did you mean priya? ${PEOPLE}`],
    ['carl', 'Did you mean carol?'],
    ['dmitri.k', 'Did you mean dmitri?'],
  ];
  for (const [name, message] of refusals)
    assert.match(await domainFailure(() => store.personHandle(name as string)), message as string);
  store.close();
});

test('create_issue, update_issue and search take any name; an unknown assignee writes nothing', async () => {
  const store = await openDemo();
  const created = await store.createIssue({ project: 'WEB', title: 'Footer links', assignee: 'Carol Diaz' });
  assert.is(created.issue.assignee, 'carol');
  const updated = await store.updateIssue(created.issue.key, { assignee: 'dmitri.k@example.com' });
  assert.is(updated.issue.assignee, 'dmitri');
  assert.equal(
    store.searchIssues({ assignee: 'Dmitri Kuznetsov', project: 'WEB' }).items.map((i) => i.key),
    [created.issue.key],
  );
  assert.is(store.searchIssues({ query: `assignee = "Dmitri Kuznetsov" AND project = WEB` }).total, 1);
  const before = written(store);
  assert.match(
    await domainFailure(() => store.createIssue({ project: 'WEB', title: 'Nobody', assignee: 'zed' })),
    'No one called "zed"',
  );
  assert.match(await domainFailure(() => store.updateIssue('WEB-1', { assignee: 'alise' })), 'Did you mean alice?');
  assert.match(await domainFailure(() => store.searchIssues({ assignee: 'bobby' })), 'Did you mean bob?');
  assert.is(written(store), before, 'nothing refused was written');
  store.close();
});

test('savePerson: a new person, then their names changed; kept in the records, read back on reopening', async () => {
  const place = await tempPlace();
  const store = await openDemo(place);
  const added = await store.savePerson({ handle: 'zoe', name: 'Zoë Ångström', email: 'zoe@example.com', aliases: ['zoe.a'] });
  assert.is(added.description, 'Person added: zoe (Zoë Ångström)');
  assert.is(store.personHandle('zoë ångström'), 'zoe');
  assert.is(
    (await store.savePerson({ handle: 'zoe', email: 'zoe.angstrom@example.com' })).description,
    'Person changed: zoe (Zoë Ångström)',
  );
  assert.is(
    (await store.savePerson({ handle: 'zoe', email: 'zoe.angstrom@example.com' })).description,
    'zoe is already so; nothing changed.',
  );
  assert.match(await domainFailure(() => store.personHandle('zoe@example.com')), 'No one called');
  const issue = await store.createIssue({ project: 'PROJ', title: 'Wallet icons', assignee: 'zoe.a' });
  assert.is(issue.issue.assignee, 'zoe');
  const expected = store.listPeople();
  store.close();
  const reopened = await openDemo(place);
  assert.equal(reopened.listPeople(), expected);
  assert.is(reopened.personHandle('ZOE.ANGSTROM@example.com'), 'zoe');
  reopened.close();
});

test("an e-mail or alias names one person: another's is refused; a shared display name finds both, and is refused naming them", async () => {
  const store = await openDemo();
  const before = written(store);
  const refusals = [
    [{ handle: 'zoe', email: 'alice.smith@example.com' }, "'alice.smith@example.com' is already alice's"],
    [{ handle: 'zoe', aliases: ['5B10AC8D82E05B22CC7D4EF5'] }, "is already bob's"],
    [{ handle: 'zoe', aliases: ['bob'] }, "'bob' is already bob's"],
    [{ handle: 'zoe', email: 'not an address' }, "Invalid email 'not an address'"],
    [{ handle: 'Zoe Smith' }, 'Invalid handle'],
  ] as const;
  for (const [input, message] of refusals) assert.match(await domainFailure(() => store.savePerson(input)), message);
  assert.is(written(store), before, 'nothing refused was written');
  await store.savePerson({ handle: 'alice.b', name: 'Alice Smith' });
  assert.match(
    await domainFailure(() => store.personHandle('alice smith')),
    'person "alice smith" names 2 people: alice (Alice Smith), alice.b (Alice Smith). Give the handle.',
  );
  assert.is(store.personHandle('alice.b'), 'alice.b');
  store.close();
});

test('meetPeople (a users file, an import): adds who is missing and new aliases; a name already there stays', async () => {
  const store = await openDemo();
  await store.savePerson({ handle: 'alice', name: 'Alice Smith-Jones' });
  const changes = await store.meetPeople([
    { handle: 'alice', name: 'Alice Smith', aliases: ['557058:aaaa-1111'] },
    { handle: 'bob', name: 'Bob Jones' },
    { handle: 'kim', name: 'Kim Lee', aliases: ['557058:kkkk-2222', '5b10a2844c20165700ede21g'] },
  ]);
  assert.equal(
    changes.map((c) => c.description),
    ['Person changed: alice (Alice Smith-Jones)', 'Person added: kim (Kim Lee)'],
  );
  const [alice, kim] = [store.listPeople().people[0], store.listPeople().people.find((p) => p.handle === 'kim')];
  assert.equal(alice?.aliases, ['5b10a2844c20165700ede21g', '557058:aaaa-1111']);
  assert.equal(kim?.aliases, ['557058:kkkk-2222'], "alice's account id stays hers");
  assert.equal(await store.meetPeople([{ handle: 'kim', name: 'Kim Lee' }]), [], 'met again: nothing to write');
  store.close();
});

test('a JSON export carries the people directory: imported into an empty store, names, e-mails and aliases still find the handle', async () => {
  const store = await openDemo();
  await store.savePerson({
    handle: 'zoe',
    name: 'Zoë Ångström',
    email: 'zoe@example.com',
    aliases: ['557058:zzzz-9999', 'zoe.a'],
  });
  await store.createIssue({ project: 'PROJ', title: 'Wallet icons', assignee: 'zoe.a' });
  // As `mcp-tracker export --format json` writes it and `import` reads it back.
  const document = JSON.stringify(store.exportSnapshot());
  const copy = await openDemo(undefined, false);
  const counts = await importSnapshot(copy, parseSnapshot(JSON.parse(document)));
  assert.is(counts.people, 6);
  assert.equal(copy.listPeople(), store.listPeople());
  assert.equal(
    copy.listPeople().people.find((person) => person.handle === 'zoe'),
    { handle: 'zoe', name: 'Zoë Ångström', email: 'zoe@example.com', aliases: ['557058:zzzz-9999', 'zoe.a'], assigned: 1 },
  );
  for (const name of ['Zoë Ångström', 'ZOE@example.com', '557058:zzzz-9999', 'zoe.a'])
    assert.is(copy.personHandle(name), 'zoe', name);
  assert.is(copy.personHandle('Alice Smith'), 'alice');
  assert.is(JSON.stringify(copy.exportSnapshot()), document, 'export, import, export: the same document');
  store.close();
  copy.close();

  // A handle that is an earlier person's alias: the directory took the alias first, and the
  // export keeps that order, so the import's checks accept both again.
  const aliasFirst = await openDemo(undefined, false);
  await aliasFirst.savePerson({ handle: 'zed', name: 'Zed Doe', aliases: ['amy'] });
  await aliasFirst.savePerson({ handle: 'amy', name: 'Amy Poe' });
  const again = await openDemo(undefined, false);
  assert.is((await importSnapshot(again, aliasFirst.exportSnapshot())).people, 2);
  assert.equal(again.listPeople(), aliasFirst.listPeople());
  aliasFirst.close();
  again.close();
});

test.run();
