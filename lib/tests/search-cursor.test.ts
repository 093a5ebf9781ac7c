// search_issues pages with keyset cursors (lib/store/queries/search-cursor.ts), in memory: every issue
// that matched throughout is seen once while another writer creates, edits and moves issues
// between pages (an offset would skip); the pages put together are the one-page answer, for
// random queries; a cursor of another search, an edited one or not a cursor at all is a tool
// error the model can read. The same on PostgreSQL: spec-tests/tests-postgres/sql-search.test.ts.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PRIORITIES, type TrackerStore } from '../store/index.js';
import type { SearchIssuesQuery } from '../store/queries/search-request.js';
import { oneOf } from './jql-arbitraries.js';
import { demoStores, domainFailure } from './demo-stores.js';
import { trackerSession } from './tracker-session.js';
import { onceEach } from './paging-checks.js';

const stores = demoStores('search-cursor');
test.after(() => stores.removeAll());

const keysOf = (page: { items: readonly { key: string }[] }): string[] => page.items.map((issue) => issue.key);

/** Every page of `search`, `limit` at a time; `between` runs after each page but the last. */
async function walk(
  store: TrackerStore,
  search: SearchIssuesQuery,
  paging: 'keyset' | 'offset',
  between: (seen: readonly string[]) => Promise<void> = async () => {},
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = store.searchIssues(paging === 'keyset' ? { ...search, cursor } : { ...search, offset: seen.length });
    seen.push(...keysOf(page));
    if (page.next_cursor === null) return seen;
    cursor = page.next_cursor;
    await between(seen);
  }
  throw new Error('more than 100 pages');
}

/**
 * Between pages a writer moves a todo issue already shown to in_progress, creates a todo
 * issue, and raises the priority of one not shown yet (it moves in a priority order). Returns
 * the keys seen, and the issues that were todo with the same priority from the first page to the last.
 */
async function walkWhileWriting(paging: 'keyset' | 'offset', order: string): Promise<{ seen: string[]; stayed: string[] }> {
  const store = await stores.open();
  try {
    for (let n = 0; n < 30; n++) await store.createIssue({ project: 'WEB', title: `Todo ${n}`, priority: PRIORITIES[n % 4] });
    const todo = (): Map<string, string> =>
      new Map(store.searchIssues({ status: 'todo', limit: 100 }).items.map((issue) => [issue.key, issue.priority]));
    const before = todo();
    const moved: string[] = [];
    const seen = await walk(store, { status: 'todo', query: order, limit: 7 }, paging, async (seenSoFar) => {
      const shown = seenSoFar.find((key) => !moved.includes(key));
      if (shown !== undefined) {
        moved.push(shown);
        await store.updateStatus(shown, 'in_progress');
      }
      await store.createIssue({ project: 'WEB', title: 'Arrived while paging', priority: 'P1' });
      const later = [...before.keys()].find((key) => !seenSoFar.includes(key));
      if (later !== undefined) await store.updateIssue(later, { priority: 'P0' });
    });
    const after = todo();
    return { seen, stayed: [...before].filter(([key, priority]) => after.get(key) === priority).map(([key]) => key) };
  } finally {
    store.close();
  }
}

for (const order of ['ORDER BY key', 'ORDER BY priority DESC, assignee', 'ORDER BY sprint, status DESC, updated']) {
  test(`keyset pages (${order}) see every issue that matched throughout exactly once while another writer writes`, async () => {
    const { seen, stayed } = await walkWhileWriting('keyset', order);
    assert.ok(stayed.length > 20, `${stayed.length} stayed`);
    assert.equal(onceEach(seen, stayed), []);
  });
}

test('the paging check can fail: offset pages under the same writes skip issues', async () => {
  const { seen, stayed } = await walkWhileWriting('offset', 'ORDER BY key');
  assert.ok(onceEach(seen, stayed).length > 0, 'offset paging should have skipped an issue');
});

test('filters without a query, and the ready view, page by cursor in their own order', async () => {
  const store = await stores.open();
  try {
    const sprint = store.listSprints({ project: 'PROJ' }).find((s) => s.state === 'active');
    assert.ok(sprint !== undefined, 'the demo data has an active sprint');
    for (let n = 0; n < 12; n++) {
      await store.createIssue({ project: 'PROJ', title: `Ready ${n}`, priority: PRIORITIES[n % 4], sprint: sprint.id });
    }
    for (const search of [{ ready: true }, { ready: true, text: 'ready' }, {}, { project: 'PROJ' }, { text: 'ready' }] as const) {
      const whole = store.searchIssues({ ...search, limit: 100 });
      const paged = await walk(store, { ...search, limit: 4 }, 'keyset');
      assert.equal(paged, keysOf(whole), JSON.stringify(search));
    }
  } finally {
    store.close();
  }
});

test('ready: true narrows words and a query to ready issues, most urgent first unless the query orders', async () => {
  const store = await stores.open();
  try {
    const sprint = store.listSprints({ project: 'PROJ' }).find((s) => s.state === 'active');
    assert.ok(sprint !== undefined, 'the demo data has an active sprint');
    for (let n = 0; n < 40; n++) {
      await store.createIssue({ project: 'PROJ', title: `Ready ${n}`, priority: PRIORITIES[n % 4], sprint: sprint.id });
    }
    await store.createIssue({ project: 'PROJ', title: 'zebracorn in the backlog' });
    const ready = store.searchIssues({ ready: true, limit: 100 }).items;
    assert.is(store.searchIssues({ ready: true, text: 'zebracorn' }).total, 0, 'a word only a backlog issue holds');
    const p0 = ready.filter((issue) => issue.priority === 'P0').map((issue) => issue.key);
    assert.equal(keysOf(store.searchIssues({ ready: true, query: 'priority = P0', limit: 100 })), p0);
    assert.is(store.searchIssues({ ready: true, query: 'status = done' }).total, 0);
    const byKeyDesc = store.searchIssues({ ready: true, query: 'ORDER BY key DESC', limit: 100 });
    assert.equal(
      keysOf(byKeyDesc),
      [...ready.map((issue) => issue.key)].sort((a, b) => b.localeCompare(a, 'en', { numeric: true })),
    );
    assert.equal(
      await walk(store, { ready: true, query: 'priority IN (P0, P1)', limit: 3 }, 'keyset'),
      keysOf(store.searchIssues({ ready: true, query: 'priority IN (P0, P1)', limit: 100 })),
    );
  } finally {
    store.close();
  }
});

const FIELDS = ['key', 'project', 'status', 'priority', 'type', 'assignee', 'reporter', 'sprint', 'created', 'updated'];
const arbitraryOrder = fc
  .subarray(FIELDS, { minLength: 0, maxLength: 3 })
  .chain((fields) => fc.tuple(...fields.map((field) => fc.constantFrom(`${field}`, `${field} DESC`))))
  .map((keys) => (keys.length === 0 ? '' : ` ORDER BY ${keys.join(', ')}`));
const arbitraryWhere = fc.option(
  fc.oneof(oneOf('status', ['todo', 'in_progress', 'done'], false), oneOf('assignee', ['alice', 'bob'], true)),
  { nil: '' },
);

test('fuzz: the pages of a random query, put together, are its one-page answer, at any page size', async () => {
  const store = await stores.open();
  try {
    // More than 64 matches (walk-order.ts sorts up to 64), so broad orders walk the indexes, by time too.
    for (let n = 0; n < 70; n++) {
      await store.createIssue({
        project: n % 3 === 0 ? 'WEB' : 'PROJ',
        title: `Issue ${n}`,
        priority: PRIORITIES[n % 4],
        assignee: n % 5 === 0 ? null : ['alice', 'bob'][n % 2],
      });
    }
    await fc.assert(
      fc.asyncProperty(arbitraryWhere, arbitraryOrder, fc.integer({ min: 1, max: 9 }), async (where, order, limit) => {
        const query = `${where}${order}`.trim();
        const whole = store.searchIssues({ query, limit: 100 });
        assert.equal(await walk(store, { query, limit }, 'keyset'), keysOf(whole), `${query} by ${limit}`);
      }),
      { seed: 16, numRuns: 200 },
    );
  } finally {
    store.close();
  }
});

// ---------------------------------------------------------------------------
// The tool
// ---------------------------------------------------------------------------

test('search_issues: next_cursor leads through every page, absent on the last; total is every match', async () => {
  const tracker = await trackerSession();
  try {
    const call = async (args: Record<string, unknown>) =>
      (await tracker.ask('tools/call', { name: 'search_issues', arguments: args })).result!;
    const whole = await call({ project: 'PROJ', limit: 100 });
    const keys: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await call({ project: 'PROJ', limit: 5, ...(cursor === undefined ? {} : { cursor }) });
      assert.is(page.isError, undefined);
      assert.is(page.structuredContent.total, whole.structuredContent.total);
      keys.push(...page.structuredContent.issues.map((issue: { key: string }) => issue.key));
      cursor = page.structuredContent.next_cursor;
      if (cursor === undefined) break;
      assert.type(cursor, 'string');
    }
    assert.not.ok('next_cursor' in whole.structuredContent);
    assert.equal(
      keys,
      whole.structuredContent.issues.map((issue: { key: string }) => issue.key),
    );
  } finally {
    tracker.close();
  }
});

test('search_issues: a cursor of another search, edited, of another shape, or garbage is an error the model can read', async () => {
  const tracker = await trackerSession();
  try {
    const call = async (args: Record<string, unknown>) =>
      (await tracker.ask('tools/call', { name: 'search_issues', arguments: args })).result!;
    const search = { query: 'ORDER BY priority DESC', limit: 3 };
    const cursor: string = (await call(search)).structuredContent.next_cursor;
    const [check, ...values] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as string[];
    const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const refusals: [string, Record<string, unknown>][] = [
      ['another query', { query: 'ORDER BY priority', limit: 3, cursor }],
      ['other filters', { ...search, status: 'todo', cursor }],
      ['an edited position', { ...search, cursor: cursorOf([check, values[0] === 'P0' ? 'P1' : 'P0', ...values.slice(1)]) }],
      ['another shape', { ...search, cursor: cursorOf({ offset: 3 }) }],
      ['too few values', { ...search, cursor: cursorOf([check]) }],
      ['not base64 JSON', { ...search, cursor: '%%%' }],
      ['empty', { ...search, cursor: '' }],
      ['very long', { ...search, cursor: 'A'.repeat(100_000) }],
    ];
    for (const [label, args] of refusals) {
      const answer = await call(args);
      assert.is(answer.isError, true, label);
      assert.match(answer.content[0].text, 'The cursor is not one this search gave', label);
    }
    assert.is((await call({ ...search, cursor })).isError, undefined, 'the cursor itself still works');
  } finally {
    tracker.close();
  }
});

test('the store refuses a cursor with an offset: the cursor says where the page starts', async () => {
  const store = await stores.open();
  try {
    const cursor = store.searchIssues({ limit: 2 }).next_cursor ?? '';
    assert.match(await domainFailure(() => store.searchIssues({ limit: 2, cursor, offset: 2 })), 'not both');
  } finally {
    store.close();
  }
});

test.run();
