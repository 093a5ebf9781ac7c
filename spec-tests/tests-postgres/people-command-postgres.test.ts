// `mcp-tracker people` on team mode's store (lib/tests/people-command.test.ts on a journal):
// a person added and another renamed through --store URL, seen by the next instance.
import * as assert from 'uvu/assert';
import { openPostgresStore } from '../../lib/store/postgres/index.js';
import { peopleCli } from '../../lib/tests/people-cli.js';
import { dropDatabases, freshStore, postgresTest } from './postgres-test-db.js';

const test = postgresTest('mcp-tracker people on PostgreSQL');
test.after(dropDatabases);

test('people add and rename through --store, and the listing, on PostgreSQL', async () => {
  const url = await freshStore();
  const seeded = await openPostgresStore({ url, shown: 'the test database', log: () => {}, watch: false, seed: true });
  seeded.close();
  const added = peopleCli('add', 'zoe', 'Zoë Ångström', '--alias', '557058:zoe', '--store', url);
  assert.is(added.status, 0, added.stderr);
  assert.is(peopleCli('rename', 'bob', 'Robert Jones', '--store', url).status, 0);
  assert.is(peopleCli('add', 'zoe', 'Again', '--store', url).status, 1);
  const listed = JSON.parse(peopleCli('--store', url).stdout) as { people: { handle: string; name: string }[] };
  assert.equal(
    listed.people.filter((person) => ['bob', 'zoe'].includes(person.handle)).map((person) => person.name),
    ['Robert Jones', 'Zoë Ångström'],
  );
  const store = await openPostgresStore({ url, shown: 'the test database', log: () => {}, watch: false, seed: false });
  assert.is(store.personHandle('557058:zoe'), 'zoe');
  store.close();
});

test.run();
