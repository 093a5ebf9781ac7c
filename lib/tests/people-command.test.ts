// `mcp-tracker people`, as whoever runs the tracker types it: the directory printed, a person
// added (then known to every tool by handle, name, e-mail and alias), a person renamed by any
// name they have, and what the store refuses said on stderr with nothing written. The built
// command on a journal file; spec-tests/tests-postgres/people-command-postgres.test.ts on PostgreSQL.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoStores } from './demo-stores.js';
import { peopleCli } from './people-cli.js';

const demo = demoStores('people-command');
test.after(() => demo.removeAll());

test('people lists the directory, adds a person, renames one by any name, and refuses what the store refuses', async () => {
  const file = (await demo.open()).path;
  const at = ['--data', file];
  const listed = peopleCli(...at);
  assert.is(listed.status, 0, listed.stderr);
  const before = JSON.parse(listed.stdout) as { people: { handle: string; name: string }[]; total: number };
  assert.equal(
    before.people.map((person) => person.handle),
    ['alice', 'bob', 'carol', 'dmitri', 'priya'],
  );

  const added = peopleCli('add', 'zoe', 'Zoë Ångström', '--email', 'zoe@example.com', '--alias', '557058:zoe', ...at);
  assert.is(added.status, 0, added.stderr);
  assert.is(added.stdout, '', 'stdout carries only the listing');
  const renamed = peopleCli('rename', 'Bob Jones', 'Robert Jones', ...at);
  assert.is(renamed.status, 0, renamed.stderr);

  const store = await demo.open(file);
  assert.is(store.personHandle('zoe@example.com'), 'zoe');
  assert.is(store.personHandle('557058:zoe'), 'zoe');
  assert.is(store.personHandle('Zoë Ångström'), 'zoe');
  assert.is(store.personHandle('Robert Jones'), 'bob', 'the new name finds bob');
  assert.is(store.listPeople().total, 6);
  store.close();

  const bytes = fs.readFileSync(file);
  const twice = peopleCli('add', 'zoe', 'Someone Else', ...at);
  assert.is(twice.status, 1);
  assert.match(twice.stderr, 'people failed: zoe is known already; people rename zoe NAME changes the name');
  const taken = peopleCli('add', 'zed', 'Zed', '--email', 'zoe@example.com', ...at);
  assert.is(taken.status, 1);
  assert.match(taken.stderr, "'zoe@example.com' is already zoe's");
  const nobody = peopleCli('rename', 'alise', 'Alice', ...at);
  assert.is(nobody.status, 1);
  assert.match(nobody.stderr, 'Did you mean alice?');
  assert.ok(fs.readFileSync(file).equals(bytes), 'a refused command writes nothing');

  assert.match(peopleCli('remove', 'zoe', ...at).stderr, 'people takes nothing (list), add HANDLE');
  assert.match(peopleCli('--alias', 'x', ...at).stderr, '--alias goes with people add HANDLE');
});

test.run();
