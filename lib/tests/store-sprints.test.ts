// Sprints: create, start (one active per project), close with the unfinished issues carried
// to a future sprint or the backlog, the goal; the burndown, from the records' times. Runs against PostgreSQL too when
// MCP_TEST_STORE_BACKEND=postgres (as store-domain.test.ts does).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, SPRINT_LIMITS, type TrackerStore } from '../store/index.js';
import { openPostgresStore } from '../store/postgres/index.js';
import { domainFailure } from './demo-stores.js';
import { ON_POSTGRES, storePlaces } from './store-places.js';

/** The demo's PROJ-S42 runs 2025-06-06 to 2025-06-20; PROJ-S43 (future) follows it. */
const NOW = new Date('2025-06-15T12:00:00.000Z');
const UNFINISHED_S42 = ['PROJ-101', 'PROJ-102', 'PROJ-103', 'PROJ-104', 'PROJ-106', 'PROJ-108'];

const places = storePlaces('tracker-sprints');
test.after(() => places.removeAll());
const tempPlace = places.place;

async function openDemo(place?: string, now = () => NOW): Promise<TrackerStore> {
  const where = place ?? (await tempPlace());
  if (ON_POSTGRES) return openPostgresStore({ url: where, shown: 'the test database', log: () => {}, watch: false, now });
  return openStore({ path: where, log: () => {}, watch: false, now });
}

const sprintOf = (store: TrackerStore, keys: readonly string[]) => keys.map((key) => store.getIssue(key).sprint);
const june = { project: 'PROJ', name: 'Sprint 44', start_date: '2025-07-05', end_date: '2025-07-18' };

test('create: the next number of the project, future, with its dates and goal; bad input never reaches the data', async () => {
  const store = await openDemo();
  const { sprint, change } = await store.createSprint({ ...june, goal: 'Wallets everywhere' });
  assert.equal(sprint, { id: 'PROJ-S44', ...june, state: 'future', goal: 'Wallets everywhere' });
  assert.equal(change.sprints, ['PROJ-S44']);
  const before = store.listSprints().length;
  const refusals = [
    [{ ...june, project: 'NOPE' }, 'Project NOPE not found. Known projects: PROJ, WEB.'],
    [{ ...june, end_date: '2025-07-01' }, 'end_date 2025-07-01 is before start_date 2025-07-05.'],
    [{ ...june, start_date: '2025-02-30' }, 'start_date must be a calendar day such as 2025-06-01'],
    [{ ...june, end_date: '2025-12-31' }, `A sprint lasts at most ${SPRINT_LIMITS.sprintDaysMax} days`],
    [{ ...june, name: 'x'.repeat(101) }, 'Sprint name is 101 characters long; the limit is 100.'],
    [{ ...june, goal: 'g'.repeat(501) }, 'Sprint goal is 501 characters long; the limit is 500.'],
  ] as const;
  for (const [input, message] of refusals) assert.match(await domainFailure(() => store.createSprint(input)), message);
  assert.is(store.listSprints().length, before, 'nothing refused was written');
  store.close();
});

test('start: one active sprint per project; a closed sprint never starts again', async () => {
  const store = await openDemo();
  assert.match(
    await domainFailure(() => store.startSprint('PROJ-S43')),
    'Sprint PROJ-S42 (Sprint 42) is already active in PROJ; one sprint per project runs at a time. Close PROJ-S42 first.',
  );
  assert.match(await domainFailure(() => store.startSprint('PROJ-S41')), 'Sprint PROJ-S41 (Sprint 41) is closed');
  assert.match(await domainFailure(() => store.startSprint('PROJ-S99')), 'Sprint PROJ-S99 not found. Sprints of PROJ:');
  const again = await store.startSprint('proj-s42');
  assert.is(again.change.sprints.length, 0, 'starting the active sprint changes nothing');
  store.close();
});

test('close: the caller says where unfinished issues go; they move in one record, done ones stay', async () => {
  const place = await tempPlace();
  const store = await openDemo(place);
  assert.match(
    await domainFailure(() => store.closeSprint('PROJ-S42')),
    'PROJ-S42 has 6 unfinished issues (PROJ-101, PROJ-102, PROJ-103, PROJ-104, PROJ-106, PROJ-108); say where they go: ' +
      'carry_to: a future sprint of PROJ (PROJ-S43 (future)) or null for the backlog.',
  );
  assert.match(
    await domainFailure(() => store.closeSprint('PROJ-S42', 'PROJ-S41')),
    'only to a future sprint of PROJ, not PROJ-S41',
  );
  assert.match(await domainFailure(() => store.closeSprint('PROJ-S42', 'WEB-S7')), 'not WEB-S7');
  assert.match(await domainFailure(() => store.closeSprint('PROJ-S43', null)), 'Sprint PROJ-S43 (Sprint 43) is future');

  const closed = await store.closeSprint('PROJ-S42', 'PROJ-S43');
  assert.equal(closed.carried, UNFINISHED_S42);
  assert.is(closed.carried_to, 'PROJ-S43');
  assert.is(closed.sprint.state, 'closed');
  assert.is(closed.change.description, 'Sprint PROJ-S42 (Sprint 42) closed; 6 unfinished issues carried to PROJ-S43');
  assert.equal(closed.change.sprints, ['PROJ-S42', 'PROJ-S43']);
  assert.equal(
    sprintOf(store, UNFINISHED_S42),
    UNFINISHED_S42.map(() => 'PROJ-S43'),
  );
  assert.equal(sprintOf(store, ['PROJ-105', 'PROJ-107']), ['PROJ-S42', 'PROJ-S42'], 'done issues stay with their sprint');

  assert.is((await store.startSprint('PROJ-S43')).sprint.state, 'active', 'the next sprint may start now');
  store.close();
  const reopened = await openDemo(place);
  assert.equal(
    sprintOf(reopened, UNFINISHED_S42),
    UNFINISHED_S42.map(() => 'PROJ-S43'),
    'read back from the records',
  );
  assert.is(reopened.getSprint('PROJ-S43').state, 'active');
  reopened.close();
});

test('close to the backlog; a sprint with nothing unfinished closes without saying where', async () => {
  const store = await openDemo();
  const closed = await store.closeSprint('PROJ-S42', 'backlog');
  assert.equal(closed.carried, UNFINISHED_S42);
  assert.is(closed.carried_to, null);
  assert.equal(
    sprintOf(store, UNFINISHED_S42),
    UNFINISHED_S42.map(() => null),
  );
  await store.startSprint('PROJ-S43');
  await store.updateIssue('PROJ-110', { status: 'in_progress' });
  await store.updateIssue('PROJ-110', { status: 'in_review' });
  await store.updateIssue('PROJ-110', { status: 'done' });
  const empty = await store.closeSprint('PROJ-S43');
  assert.equal(empty.carried, []);
  assert.is(empty.sprint.state, 'closed');
  store.close();
});

test('goal: set, unchanged when the same, never on a closed sprint', async () => {
  const store = await openDemo();
  const set = await store.setSprintGoal('PROJ-S43', '  Wallets: Apple Pay only  ');
  assert.is(set.sprint.goal, 'Wallets: Apple Pay only');
  assert.is(set.change.description, 'Sprint PROJ-S43 goal: Wallets: Apple Pay only');
  assert.is((await store.setSprintGoal('PROJ-S43', 'Wallets: Apple Pay only')).change.sprints.length, 0);
  assert.match(await domainFailure(() => store.setSprintGoal('PROJ-S41', 'Rewrite history')), 'is closed; its goal stays');
  store.close();
});

test('burndown of the demo sprint: a point per day from its start to today; a future sprint has none', async () => {
  const store = await openDemo();
  const { points } = store.getSprintBurndown('PROJ-S42');
  assert.equal(
    points.map((p) => p.date),
    Array.from({ length: 10 }, (_, i) => `2025-06-${String(6 + i).padStart(2, '0')}`),
  );
  assert.equal(points.at(-1), {
    date: '2025-06-15',
    remaining_points: 21,
    remaining_issues: 6,
    scope_points: 25,
    ideal_points: 5,
  });
  assert.equal(store.getSprintBurndown('PROJ-S43').points, []);
  store.close();
});

test('burndown: done, scope changes, leaving and reopening, day by day; the close ends it; read back from the records', async () => {
  let time = Date.parse('2025-06-15T09:00:00.000Z');
  const place = await tempPlace();
  const store = await openDemo(place, () => new Date(time));
  const nextDay = () => (time += 86_400_000);
  await store.closeSprint('PROJ-S42', null);
  const { sprint } = await store.createSprint({
    project: 'PROJ',
    name: 'Short',
    start_date: '2025-06-15',
    end_date: '2025-06-19',
  });
  await store.startSprint(sprint.id);
  const made = [];
  for (const points of [5, 3, 2]) {
    made.push(
      (await store.createIssue({ project: 'PROJ', title: `${points} points`, story_points: points, sprint: sprint.id })).issue
        .key,
    );
  }
  const [five, three, two] = made as [string, string, string];
  nextDay(); // 06-16: five done
  for (const status of ['in_progress', 'in_review', 'done']) await store.updateStatus(five, status);
  nextDay(); // 06-17: three re-estimated to 8, a 1-point issue joins
  await store.updateIssue(three, { story_points: 8 });
  await store.createIssue({ project: 'PROJ', title: 'late', story_points: 1, sprint: sprint.id });
  nextDay(); // 06-18: two leaves for the backlog, five is reopened
  await store.moveToSprint(two, null);
  await store.updateStatus(five, 'reopened');
  const expected = [
    { date: '2025-06-15', remaining_points: 10, remaining_issues: 3, scope_points: 10, ideal_points: 10 },
    { date: '2025-06-16', remaining_points: 5, remaining_issues: 2, scope_points: 10, ideal_points: 7.5 },
    { date: '2025-06-17', remaining_points: 11, remaining_issues: 3, scope_points: 16, ideal_points: 5 },
    { date: '2025-06-18', remaining_points: 14, remaining_issues: 3, scope_points: 14, ideal_points: 2.5 },
  ];
  assert.equal(store.getSprintBurndown(sprint.id).points, expected);
  await store.closeSprint(sprint.id, null);
  nextDay(); // 06-19: after the close, nothing more is the closed sprint's
  assert.equal(store.getSprintBurndown(sprint.id).points, expected, 'the carried issues do not empty the closed sprint');
  store.close();
  const reopened = await openDemo(place, () => new Date(time));
  assert.equal(reopened.getSprintBurndown(sprint.id).points, expected, 'the same from the records read back');
  reopened.close();
});

test.run();
