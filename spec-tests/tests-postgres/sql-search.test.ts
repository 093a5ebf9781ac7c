// search_issues answered by SQL (lib/store/postgres/sql-search.ts) over the issues read table
// (issue-table.ts): the same answers as the in-memory engine for random queries on data
// changed by every kind of record, keyset pages that see each match once while writes happen
// between them, the read table equal to what the records say after concurrent writers and
// after a writer killed mid-stream, the table built for a database migrated from version 1.
//
// One store answers both ways: its searchIssuesYielding goes to SQL, its searchIssues (which
// must answer at once) to the replica's memory.
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import * as assert from 'uvu/assert';
import type pg from 'pg';
import { openPostgresStore } from '../../lib/store/postgres/index.js';
import { MIGRATIONS } from '../../lib/store/postgres/migrations.js';
import type { TrackerStore } from '../../lib/store/index.js';
import { ISSUE_TYPES, PRIORITIES, STATUSES, type Issue } from '../../lib/store/model/schema.js';
import { admin, dropDatabases, freshDatabase, freshStore, postgresTest } from './postgres-test-db.js';
import { createRng } from '../fuzz/prng.js';
import { oneOf } from '../../lib/tests/jql-arbitraries.js';
import { onceEach } from '../../lib/tests/paging-checks.js';

const test = postgresTest('the SQL search tests');
test.after(() => dropDatabases());

const NOW = new Date();
/** The stores' clock: still while searches compare, moved on by each random write so timestamps differ. */
let clock = NOW;
const open = (url: string, seed = true): Promise<TrackerStore> =>
  openPostgresStore({ url, shown: 'the test database', log: () => {}, seed, now: () => clock, user: 'alice', watch: false });

const WORDS = ['checkout', 'payment', 'webhook', 'latency', 'refund', 'mobile', 'cache', 'login', 'ÉCLAIR', '50%_off'];
const LABELS = ['checkout', 'payments', 'backend', 'frontend', 'mobile'];

/** What the projects let their issues carry (store model/fields.ts): the same names in both, of different options. */
const PROJECT_FIELDS = {
  PROJ: {
    components: ['api', 'Web UI', 'billing'],
    versions: ['2.1', '2.2'],
    custom: [
      { name: 'Story Type', type: 'select', options: ['Research', 'Build'] },
      { name: 'Hours', type: 'number' },
    ],
  },
  WEB: {
    components: ['api', 'frontend'],
    versions: ['2.1'],
    custom: [{ name: 'Story Type', type: 'select', options: ['Research', 'Design'] }],
  },
} as const;

/** Random values of the project's fields, some left out; null clears one. */
function randomFields(project: 'PROJ' | 'WEB', random: () => number): Record<string, unknown> {
  const defined = PROJECT_FIELDS[project];
  const some = <T>(items: readonly T[]): T[] => items.filter(() => random() < 0.4);
  const fields: Record<string, unknown> = {};
  if (random() < 0.5)
    fields.due =
      random() < 0.2 ? null : new Date(clock.getTime() + (random() - 0.5) * 20 * 86_400_000).toISOString().slice(0, 10);
  if (random() < 0.5) fields.components = some(defined.components);
  if (random() < 0.3) fields.fix_versions = some(defined.versions);
  const options = defined.custom[0].options;
  if (random() < 0.5) fields['story type'] = random() < 0.2 ? null : options[Math.floor(random() * options.length)];
  if (project === 'PROJ' && random() < 0.5) fields.Hours = Math.round(random() * 80) / 10;
  return fields;
}

/** Creates issues and changes them through every kind of record the read table follows. */
async function randomWrites(store: TrackerStore, seed: number, count: number): Promise<void> {
  const random = createRng(seed).next;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  for (const [project, fields] of Object.entries(PROJECT_FIELDS)) await store.defineFields(project, fields);
  const phrase = (): string => `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(random() * 100)}`;
  const people = ['alice', 'bob', 'carol', 'dmitri', 'priya'];
  const sprintsOf = (project: string) => store.listSprints({ project }).filter((s) => s.state !== 'closed');
  for (let n = 0; n < count; n++) {
    clock = new Date(clock.getTime() + Math.floor(random() * 20) * 60_000);
    const project = pick(['PROJ', 'WEB']);
    const sprint = random() < 0.5 ? null : (pick(sprintsOf(project))?.id ?? null);
    const { issue } = await store.createIssue({
      project,
      title: `Fix ${phrase()}`,
      description: random() < 0.3 ? '' : `When ${phrase()} happens`,
      type: pick(['task', 'bug', 'story']),
      priority: pick(PRIORITIES),
      assignee: random() < 0.3 ? null : pick(people),
      reporter: pick(people),
      sprint,
      labels: LABELS.filter(() => random() < 0.3),
      fields: random() < 0.5 ? randomFields(project as 'PROJ' | 'WEB', random) : {},
    });
    await changeOne(store, issue, random, pick, phrase);
  }
}

async function changeOne(
  store: TrackerStore,
  issue: Issue,
  random: () => number,
  pick: <T>(items: readonly T[]) => T,
  phrase: () => string,
): Promise<void> {
  const roll = random();
  clock = new Date(clock.getTime() + 60_000);
  if (roll < 0.2) await store.updateStatus(issue.key, pick(store.getTransitions(issue.key)));
  else if (roll < 0.35) await store.addComment(issue.key, { body: `Seen: ${phrase()}`, author: 'bob' });
  else if (roll < 0.5)
    await store.updateIssue(issue.key, { title: `Now ${phrase()}`, labels: LABELS.filter(() => random() < 0.3) });
  else if (roll < 0.6) await store.updateIssue(issue.key, { priority: pick(PRIORITIES), description: phrase() });
  else if (roll < 0.7) await store.assignIssue(issue.key, random() < 0.5 ? null : 'carol');
  else if (roll < 0.8) await store.moveToSprint(issue.key, null);
  else if (roll < 0.9) await store.updateIssue(issue.key, { fields: randomFields(issue.project as 'PROJ' | 'WEB', random) });
}

/** A random query in the language: every field, the functions, dates, text, ORDER BY. */
function arbitraryQuery(store: TrackerStore): fc.Arbitrary<string> {
  const sprints = store.listSprints().map((s) => s.id);
  const people = ['alice', 'bob', 'carol', 'dmitri', 'priya'];
  const day = clock.toISOString().slice(0, 10);
  const clause = fc.oneof(
    oneOf('project', ['PROJ', 'WEB'], false),
    oneOf('status', STATUSES, false),
    oneOf('priority', PRIORITIES, false),
    oneOf('type', ISSUE_TYPES, false),
    oneOf('assignee', people, true),
    oneOf('reporter', people, false),
    oneOf('sprint', sprints, true),
    oneOf('labels', LABELS, true),
    fc.constantFrom('sprint IN openSprints()', 'assignee = currentUser()', 'reporter != currentUser()'),
    fc
      .tuple(
        fc.constantFrom('created', 'updated'),
        fc.constantFrom('=', '!=', '<', '<=', '>', '>='),
        fc.constantFrom('-7d', '-2w', '-1h', day),
      )
      .map(([field, op, value]) => `${field} ${op} ${value}`),
    fc.subarray([...WORDS, 'pay', 'ck', 'éc', '%', '_'], { minLength: 1, maxLength: 2 }).map((ws) => `text ~ "${ws.join(' ')}"`),
    // Jira's clauses: parts of the text, statusCategory, resolution, ordered priority, keys and links (jql/issue-sets.ts).
    fc
      .tuple(fc.constantFrom('summary', 'description', 'comment'), fc.constantFrom('~', '!~'), fc.constantFrom(...WORDS, 'pay*'))
      .map(([field, op, word]) => `${field} ${op} "${word}"`),
    fc.constantFrom(
      'statusCategory = "In Progress"',
      'statusCategory != Done',
      'resolution = Unresolved',
      'resolution IS NOT EMPTY',
      'priority <= P1',
      'priority >= High',
      'key > PROJ-110',
      'key IN (PROJ-101, WEB-1)',
      'parent = PROJ-109',
      'parent IS EMPTY',
      'issue IN linkedIssues(PROJ-102)',
      'issue IN blockedIssues()',
      'issue NOT IN blockingIssues()',
    ),
    // Fields beyond the built-in ones (jql/field-conditions.ts), custom ones by quoted name.
    fc.constantFrom(
      'due < now()',
      'due >= startOfWeek()',
      'duedate <= endOfWeek(1)',
      'due IS EMPTY',
      'component = api',
      'component IN (api, "Web UI")',
      'component != api',
      'components IS NOT EMPTY',
      'fixVersion = "2.1"',
      'fixVersion NOT IN ("2.2")',
      '"Story Type" = Research',
      '"story type" IN (build, design)',
      '"Story Type" IS EMPTY',
      '"Hours" > 3',
      '"Hours" <= 2.5',
    ),
  );
  const expression = fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      clause,
      fc.tuple(tie('e'), fc.constantFrom('AND', 'OR'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
      tie('e').map((e) => `NOT ${e}`),
    ),
  })).e;
  const order = fc
    .subarray(['key', 'project', 'status', 'priority', 'assignee', 'reporter', 'type', 'sprint', 'created', 'updated', 'due'], {
      maxLength: 3,
    })
    .chain((fields) => fc.tuple(...fields.map((f) => fc.constantFrom(`${f} ASC`, `${f} DESC`))))
    .map((keys) => (keys.length === 0 ? '' : ` ORDER BY ${keys.join(', ')}`));
  return fc.tuple(fc.option(expression, { nil: '' }), order).map(([where, by]) => `${where}${by}`.trim());
}

/** The SQL answer (searchIssuesYielding) and the in-memory one (searchIssues) of one search: keys and total. */
async function bothAnswers(store: TrackerStore, query: Parameters<TrackerStore['searchIssues']>[0]) {
  const sql = await store.searchIssuesYielding(query);
  const memory = store.searchIssues(query);
  return {
    sql: { keys: sql.items.map((i) => i.key), total: sql.total },
    memory: { keys: memory.items.map((i) => i.key), total: memory.total },
  };
}

test('fuzz: random queries answer by SQL as the in-memory engine answers, page and total, in the same order', async () => {
  const store = await open(await freshStore());
  try {
    await randomWrites(store, 7, 120);
    const queries = fc.sample(fc.tuple(arbitraryQuery(store), fc.nat(40), fc.integer({ min: 1, max: 60 })), {
      seed: 7,
      numRuns: 300,
    });
    let matched = 0;
    for (const [query, offset, limit] of queries) {
      const { sql, memory } = await bothAnswers(store, { query, offset, limit });
      assert.equal(sql, memory, query);
      if (memory.total > 0) matched += 1;
    }
    // The property is about queries that find something, not only empty answers.
    assert.ok(matched > 150, `${matched} of 300 found something`);
  } finally {
    store.close();
  }
});

test('the arguments beside a query (status, assignee, sprint, label, text, project) answer by SQL as in memory', async () => {
  const store = await open(await freshStore());
  try {
    await randomWrites(store, 3, 40);
    const searches = [
      { status: ['todo', 'in_progress'] },
      { assignee: null, project: 'PROJ' },
      { sprint: null, text: 'checkout' },
      { label: 'backend', query: 'ORDER BY priority DESC' },
      { text: '50%_off', query: 'status != done' },
      { text: 'ÉCLAIR' },
      { assignee: 'bob', sprint: 'PROJ-S42', status: 'todo' },
    ];
    for (const search of searches) {
      const { sql, memory } = await bothAnswers(store, { ...search, limit: 100 });
      assert.equal(sql, memory, JSON.stringify(search));
    }
  } finally {
    store.close();
  }
});

test('fuzz: the ready view answers by SQL as in memory while blockers come and go and sprints close and start', async () => {
  const url = await freshStore();
  const warnings: string[] = [];
  const log = (level: string, message: string) => (level === 'warn' ? warnings.push(message) : undefined);
  const store = await openPostgresStore({ url, shown: 'the test database', log, now: () => clock, user: 'alice', watch: false });
  try {
    await randomWrites(store, 11, 60);
    const random = createRng(11).next;
    const keys = store.searchIssues({ limit: 100 }).items.map((issue) => issue.key);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const queries = fc.sample(arbitraryQuery(store), { seed: 11, numRuns: 40 });
    let found = 0;
    for (let step = 0; step < 40; step++) {
      const roll = random();
      const [from, to] = [pick(keys), pick(keys)];
      const linked = store.getLinkKeys(to).some((link) => link.type === 'is_blocked_by' && link.key === from);
      if (roll < 0.5) await store.linkIssues(from, 'blocks', to, linked).catch(() => undefined);
      else if (roll < 0.7) await store.updateStatus(from, pick(store.getTransitions(from)));
      else if (roll < 0.8) {
        const sprint = pick(store.listSprints({ project: from.split('-')[0] }).filter((s) => s.state !== 'closed'));
        if (sprint !== undefined) await store.moveToSprint(from, sprint.id);
      } else if (roll < 0.9) {
        const active = store.listSprints({ project: 'PROJ' }).find((sprint) => sprint.state === 'active');
        const future = store.listSprints({ project: 'PROJ' }).filter((sprint) => sprint.state === 'future');
        if (active !== undefined) {
          await store.closeSprint(active.id, null);
          // A done issue of the closed sprint reopened stays out of the view: its sprint is closed.
          const done = store.searchIssues({ sprint: active.id, status: 'done', limit: 1 }).items[0];
          if (done !== undefined) await store.updateStatus(done.key, 'reopened');
        } else if (future.length > 0) await store.startSprint(pick(future).id);
      }
      for (const search of [{ ready: true }, { ready: true, project: 'WEB' }, { ready: true, query: queries[step] }]) {
        const { sql, memory } = await bothAnswers(store, { ...search, limit: 100 });
        assert.equal(sql, memory, JSON.stringify(search));
        if (memory.total > 0) found += 1;
      }
    }
    assert.ok(found > 40, `${found} of 120 ready answers found something`);
    assert.equal(warnings, [], 'every ready answer came from SQL');
  } finally {
    store.close();
  }
});

/** WEB's own workflow (docs/workflows.md): statuses the default lacks, and a second done status. */
const WEB_WORKFLOW = {
  statuses: [
    { name: 'To Do', category: 'To Do' },
    { name: 'In Progress', category: 'In Progress' },
    { name: 'Code Review', category: 'In Progress' },
    { name: 'QA', category: 'In Progress' },
    { name: 'Done', category: 'Done' },
    { name: "Won't Do", category: 'Done' },
  ],
  transitions: { 'To Do': ['In Progress'], 'In Progress': ['Code Review'], 'Code Review': ['QA'], QA: ['Done'], Done: [] },
  resolutions: ['Done', 'Duplicate', "Won't Do"],
  close_from_any_open: true,
};

test('workflows per project: searches and the ready view answer by SQL as in memory, before and after a change maps issues', async () => {
  const store = await open(await freshStore());
  try {
    await store.setWorkflow('WEB', WEB_WORKFLOW);
    await randomWrites(store, 5, 80);
    const web = store.searchIssues({ project: 'WEB', limit: 100 }).items;
    for (const issue of web.filter((i) => i.status === 'in_progress').slice(0, 6)) {
      await store.updateStatus(issue.key, 'Code Review');
      await store.updateStatus(issue.key, 'QA');
    }
    for (const [index, issue] of web
      .filter((i) => i.status === 'todo')
      .slice(0, 4)
      .entries()) {
      await store.updateIssue(issue.key, { status: index % 2 === 0 ? "Won't Do" : 'Done', resolution: 'duplicate' });
    }
    const compare = async (extra: readonly string[]) => {
      const queries = [...extra, ...fc.sample(arbitraryQuery(store), { seed: 5, numRuns: 100 })];
      let found = 0;
      for (const query of queries) {
        for (const search of [{ query }, { query, ready: true }]) {
          const { sql, memory } = await bothAnswers(store, { ...search, limit: 100 });
          assert.equal(sql, memory, JSON.stringify(search));
          if (memory.total > 0) found += 1;
        }
      }
      assert.ok(found > 60, `${found} of ${2 * queries.length} found something`);
    };
    const statusQueries = [
      'status = "Code Review"',
      'statusCategory = Done',
      'resolution = Unresolved',
      'project = WEB ORDER BY status DESC',
    ];
    await compare([...statusQueries, 'status IN (qa, "Won\'t Do")']);
    assert.ok(store.searchIssues({ query: 'status = QA' }).total >= 3, 'issues sit in QA');
    // QA dropped: its issues go to Code Review in the same record, in memory and in the read table.
    const withoutQa = { ...WEB_WORKFLOW, statuses: WEB_WORKFLOW.statuses.filter((status) => status.name !== 'QA') };
    await store.setWorkflow(
      'WEB',
      { ...withoutQa, transitions: { 'To Do': ['In Progress'], 'Code Review': ['Done'] } },
      { QA: 'Code Review' },
    );
    await compare(statusQueries);
  } finally {
    store.close();
  }
});

test('the agreement check can fail: a row of the read table changed behind the log is caught', async () => {
  const url = await freshStore();
  const store = await open(url);
  try {
    await admin((client) => client.query("UPDATE mcp_tracker_issues SET status = 'done' WHERE key = 'PROJ-101'"), url);
    const { sql, memory } = await bothAnswers(store, { query: 'status = done', limit: 100 });
    assert.not.equal(sql, memory);
  } finally {
    store.close();
  }
});

test('errors are the in-memory engine’s: an unknown name, a bad query, a bad page', async () => {
  const store = await open(await freshStore());
  try {
    for (const query of [{ query: 'assignee = nobody' }, { query: 'status = ' }, { project: 'NOPE' }, { limit: 0 }]) {
      let memory = '';
      try {
        store.searchIssues(query);
      } catch (error) {
        memory = (error as Error).message;
      }
      const sql = await Promise.resolve()
        .then(() => store.searchIssuesYielding(query))
        .then(
          () => '',
          (error: Error) => error.message,
        );
      assert.ok(memory !== '', JSON.stringify(query));
      assert.is(sql, memory, JSON.stringify(query));
    }
  } finally {
    store.close();
  }
});

test('the database going away: search is answered from memory, as every other read, and by SQL again after', async () => {
  const url = await freshDatabase();
  const name = new URL(url).pathname.slice(1);
  const warnings: string[] = [];
  const store = await openPostgresStore({
    url,
    shown: 'the test database',
    log: (_level, line) => void warnings.push(line),
    timeoutMs: 1_000,
  });
  try {
    const query = { query: 'status != done ORDER BY priority', limit: 100 };
    const expected = store.searchIssues(query).items.map((issue) => issue.key);
    await admin(async (client) => {
      await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    });
    const during = await store.searchIssuesYielding(query);
    assert.equal(
      during.items.map((issue) => issue.key),
      expected,
    );
    assert.ok(
      warnings.some((line) => line.includes('search answered from memory')),
      warnings.join('\n'),
    );
    await admin((client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    warnings.length = 0;
    const after = await store.searchIssuesYielding(query);
    assert.equal(
      after.items.map((issue) => issue.key),
      expected,
    );
    assert.equal(warnings, [], 'answered by SQL again');
  } finally {
    store.close();
  }
});

// ---------------------------------------------------------------------------
// Keyset pages
// ---------------------------------------------------------------------------

/**
 * The pages of the todo issues in `order` through the store's search (SQL), 7 at a time;
 * `between` runs after each page but the last.
 */
async function walk(
  store: TrackerStore,
  order: string,
  paging: 'keyset' | 'offset',
  between: (seen: readonly string[]) => Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const search = { status: 'todo', query: order, limit: 7 };
    const answer = await store.searchIssuesYielding(
      paging === 'keyset' ? { ...search, cursor } : { ...search, offset: seen.length },
    );
    seen.push(...answer.items.map((issue) => issue.key));
    if (answer.next_cursor === null) return seen;
    cursor = answer.next_cursor;
    await between(seen);
  }
  throw new Error('more than 100 pages');
}

const todoKeys = async (store: TrackerStore): Promise<string[]> =>
  (await store.searchIssuesYielding({ status: 'todo', limit: 100 })).items.map((issue) => issue.key);

/**
 * Between pages, a writer moves a todo issue already shown to in_progress (the matches before
 * the cursor shrink), creates a todo issue, and comments on one not shown yet. Returns the keys
 * seen and the issues that were todo from before the first page to after the last.
 */
async function walkWhileWriting(paging: 'keyset' | 'offset', order: string): Promise<{ seen: string[]; stayed: string[] }> {
  const url = await freshStore();
  const store = await open(url);
  try {
    for (let n = 0; n < 30; n++) await store.createIssue({ project: 'WEB', title: `Todo ${n}`, priority: PRIORITIES[n % 4] });
    const before = await todoKeys(store);
    const moved: string[] = [];
    const seen = await walk(store, order, paging, async (seenSoFar) => {
      const shown = seenSoFar.find((key) => !moved.includes(key));
      if (shown !== undefined) {
        moved.push(shown);
        await store.updateStatus(shown, 'in_progress');
      }
      await store.createIssue({ project: 'WEB', title: 'Arrived while paging', priority: 'P1' });
      const later = before.find((key) => !seenSoFar.includes(key));
      if (later !== undefined) await store.addComment(later, { body: 'a write between pages' });
    });
    const after = await todoKeys(store);
    return { seen, stayed: before.filter((key) => after.includes(key)) };
  } finally {
    store.close();
  }
}

for (const order of ['ORDER BY key', 'ORDER BY priority DESC, assignee', 'ORDER BY sprint, status DESC']) {
  test(`keyset pages (${order}) see every issue that matched throughout exactly once while writes happen between pages`, async () => {
    const { seen, stayed } = await walkWhileWriting('keyset', order);
    assert.ok(stayed.length > 20, `${stayed.length} stayed`);
    assert.equal(onceEach(seen, stayed), []);
  });
}

test('the paging check can fail: offset pages under the same writes skip issues', async () => {
  const { seen, stayed } = await walkWhileWriting('offset', 'ORDER BY key');
  assert.ok(onceEach(seen, stayed).length > 0, 'offset paging should have skipped an issue');
});

test('a cursor of another search, an edited one, or not a cursor at all is refused; SQL and memory read the same cursor', async () => {
  const url = await freshStore();
  const warnings: string[] = [];
  const store = await openPostgresStore({
    url,
    shown: 'the test database',
    log: (level, message) => {
      if (level === 'warn') warnings.push(message);
    },
    now: () => clock,
    watch: false,
  });
  try {
    const search = { query: 'ORDER BY priority DESC, assignee', limit: 3 };
    const first = await store.searchIssuesYielding(search);
    const cursor = first.next_cursor ?? '';
    const bySql = await store.searchIssuesYielding({ ...search, cursor });
    const inMemory = store.searchIssues({ ...search, cursor });
    assert.equal(
      bySql.items.map((issue) => issue.key),
      inMemory.items.map((issue) => issue.key),
    );
    assert.equal(bySql.next_cursor, inMemory.next_cursor);
    assert.equal(warnings, [], 'the first two pages were answered by SQL');
    const [check, ...values] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as string[];
    const edited = Buffer.from(JSON.stringify([check, ...values.slice(0, -1), 'PROJ-1'])).toString('base64url');
    const other = { ...search, query: 'ORDER BY priority DESC' };
    for (const [query, label] of [
      [{ ...other, cursor }, 'another search'],
      [{ ...search, cursor: edited }, 'an edited cursor'],
      [{ ...search, cursor: 'not a cursor' }, 'not a cursor'],
      [{ ...search, cursor: Buffer.from('["PROJ"]').toString('base64url') }, 'another shape'],
    ] as const) {
      const refused = await Promise.resolve()
        .then(() => store.searchIssuesYielding(query))
        .then(
          () => '',
          (error: Error) => error.message,
        );
      assert.match(refused, 'The cursor is not one this search gave', label);
    }
  } finally {
    store.close();
  }
});

// ---------------------------------------------------------------------------
// The read table and the log
// ---------------------------------------------------------------------------

/** The rows the records say the table holds: each issue of the store's snapshot, as the table keeps it. */
function expectedRows(store: TrackerStore): string[] {
  return store
    .exportSnapshot()
    .issues.map((issue) =>
      JSON.stringify([
        issue.key,
        issue.status,
        issue.priority,
        issue.type,
        issue.assignee,
        issue.reporter,
        issue.sprint,
        issue.labels,
        issue.parent ?? null,
        issue.created_at,
        issue.updated_at,
        issue.fields?.due ?? null,
        issue.title,
        issue.description,
        [issue.title, issue.description, ...issue.comments.map((c) => c.body)].map((t) => t.toLowerCase()).join('\n'),
      ]),
    );
}

const tableRows = (url: string): Promise<string[]> =>
  admin(async (client: pg.Client) => {
    const found = await client.query(
      `SELECT key, status, priority, type, assignee, reporter, sprint, labels, parent, created, updated, due, title, description, search_text
       FROM mcp_tracker_issues ORDER BY project, number`,
    );
    return found.rows.map((row: Record<string, unknown>) => JSON.stringify(Object.values(row)));
  }, url);

test('after two instances write at once, the read table holds what the records say', async () => {
  const url = await freshStore();
  const [first, second] = [await open(url), await open(url)];
  try {
    await Promise.all([randomWrites(first, 11, 40), randomWrites(second, 12, 40)]);
    const fresh = await open(url, false);
    try {
      assert.equal(await tableRows(url), expectedRows(fresh));
    } finally {
      fresh.close();
    }
  } finally {
    first.close();
    second.close();
  }
});

test('the table check can fail: a row changed behind the log is caught', async () => {
  const url = await freshStore();
  const store = await open(url);
  try {
    await admin((client) => client.query("UPDATE mcp_tracker_issues SET title = 'changed' WHERE key = 'WEB-1'"), url);
    assert.not.equal(await tableRows(url), expectedRows(store));
  } finally {
    store.close();
  }
});

test('a writer process killed mid-stream leaves a read table that holds what the records say', async () => {
  const url = await freshStore();
  (await open(url)).close();
  const child = spawn(process.execPath, ['--import', 'tsx', 'spec-tests/tests-postgres/sql-search-writer.ts', url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let written = 0;
  child.stdout.on('data', (chunk: Buffer) => (written += chunk.toString().split('\n').length - 1));
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (written < 30 && !exited && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(written >= 30 && !exited, `the writer wrote ${written} times${exited ? ' and stopped on its own' : ''}`);
  child.kill('SIGKILL');
  while (!exited) await new Promise((resolve) => setTimeout(resolve, 20));
  const store = await open(url, false);
  try {
    assert.ok(store.exportSnapshot().issues.length > 30);
    assert.equal(await tableRows(url), expectedRows(store));
  } finally {
    store.close();
  }
});

test('a database of schema version 1 is migrated: the read tables built from its records answer searches and the ready view', async () => {
  const url = await freshStore();
  const store = await open(url);
  await randomWrites(store, 5, 20);
  await store.linkIssues('PROJ-101', 'blocks', 'PROJ-104');
  const before = expectedRows(store);
  store.close();
  // Back to version 1, as a database written by the previous release.
  await admin(async (client) => {
    for (const table of ['mcp_tracker_issues', 'mcp_tracker_sprints', 'mcp_tracker_blocks'])
      await client.query(`DROP TABLE ${table}`);
    await client.query("UPDATE mcp_tracker_meta SET value = '1' WHERE key = 'schema_version'");
  }, url);
  const migrated = await open(url, false);
  try {
    assert.equal(await tableRows(url), before);
    const { sql, memory } = await bothAnswers(migrated, { query: 'text ~ checkout ORDER BY updated DESC', limit: 100 });
    assert.equal(sql, memory);
    const ready = await bothAnswers(migrated, { ready: true, limit: 100 });
    assert.equal(ready.sql, ready.memory, 'the ready view, from the sprints and blocks built from the records');
    assert.ok(!ready.memory.keys.includes('PROJ-104'), 'PROJ-104 is blocked by PROJ-101');
    assert.is(MIGRATIONS.length, 4);
  } finally {
    migrated.close();
  }
});

test.run();
