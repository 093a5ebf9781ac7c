// search_issues answered at once when it needs no pause: a search the indexes answer (or the
// first slice of a scan finishes) is a page, not a promise, from the store and through the
// server; a search that scans in slices still pauses, one search at a time, and gives the
// same pages as the whole search run at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { transcript } from '../../protocol/tests/harness.js';
import { demoRecords } from '../store/model/demo-data.js';
import { createJournal } from '../store/journal/journal.js';
import type { Issue } from '../store/model/schema.js';
import type { RecordDraft } from '../store/model/record-schema.js';
import { openStore, silentLogger, type Page, type TrackerStore } from '../store/index.js';
import { createTrackerServer } from '../tracker/server.js';

const START = new Date('2025-06-15T12:00:00.000Z');
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'search-at-once-'));
test.after(() => fs.rmSync(directory, { recursive: true, force: true }));

/** The demo data and 5,000 more WEB issues, a quarter of them done: enough for a scan to pause. */
async function storeWithManyIssues(name: string): Promise<TrackerStore> {
  const file = path.join(directory, `${name}.jsonl`);
  const drafts: RecordDraft[] = demoRecords(START);
  const model = drafts.find((draft) => draft.type === 'issue.created')?.issue as Issue;
  for (let n = 1; n <= 5_000; n++) {
    const issue = { ...model, key: `WEB-${100 + n}`, project: 'WEB', sprint: null, status: n % 4 === 0 ? 'done' : 'todo' };
    drafts.push({ type: 'issue.created', issue: issue as Issue });
  }
  createJournal(file, drafts, START);
  return openStore({ path: file, log: silentLogger, watch: false, now: () => START });
}

/** The indexes answer a status alone; a word with a dash is looked for in the text, in slices. */
const INDEXED = { status: 'done', limit: 5 };
const SCANNED = { status: 'done', text: 'single-page', limit: 5 };

const keysOf = (page: Page<Issue>): string[] => page.items.map((issue) => issue.key);

test('the store: an indexed search is a page at once; a scan is a promise of the same page as the whole search', async () => {
  const store = await storeWithManyIssues('store');
  try {
    const indexed = store.searchIssuesYielding(INDEXED);
    assert.not.instance(indexed, Promise, 'no pause, so no promise');
    const page = indexed as Page<Issue>;
    assert.equal([keysOf(page), page.total], [keysOf(store.searchIssues(INDEXED)), store.searchIssues(INDEXED).total]);
    assert.is(store.searchIssuesYielding(INDEXED), page, 'asked again: the kept page, at once');

    const scanned = store.searchIssuesYielding(SCANNED);
    assert.instance(scanned, Promise, 'a scan pauses between slices');
    const scannedPage = await scanned;
    const whole = store.searchIssues(SCANNED);
    assert.ok(whole.total > 1_000, `${whole.total} found`);
    assert.equal(
      [keysOf(scannedPage), scannedPage.total, scannedPage.next_cursor],
      [keysOf(whole), whole.total, whole.next_cursor],
    );
    assert.is(store.searchIssuesYielding(SCANNED), scannedPage, 'a finished scan is kept: asked again, it is a page at once');

    // Its next page by cursor scans too, and is the whole search's next page.
    const next = await store.searchIssuesYielding({ ...SCANNED, cursor: scannedPage.next_cursor as string });
    assert.equal(keysOf(next), keysOf(store.searchIssues({ ...SCANNED, cursor: whole.next_cursor as string })));
  } finally {
    store.close();
  }
});

test('the store: a search asked while another pauses waits for it, even one the indexes answer', async () => {
  const store = await storeWithManyIssues('queue');
  try {
    const ended: string[] = [];
    const scanning = Promise.resolve(store.searchIssuesYielding({ ...SCANNED, limit: 7 })).then(() => ended.push('scan'));
    const waiting = store.searchIssuesYielding({ ...INDEXED, limit: 7 });
    assert.instance(waiting, Promise, 'the indexed search waits its turn');
    const indexed = Promise.resolve(waiting).then((page) => {
      ended.push('indexed');
      return page;
    });
    await Promise.all([scanning, indexed]);
    assert.equal(ended, ['scan', 'indexed']);
    assert.equal(keysOf(await indexed), keysOf(store.searchIssues({ ...INDEXED, limit: 7 })));
    assert.not.instance(store.searchIssuesYielding({ ...INDEXED, limit: 8 }), Promise, 'both done: at once again');
    // A wrong argument is refused at once too, before anything is searched.
    assert.throws(() => store.searchIssuesYielding({ limit: 0 }), /limit/);
  } finally {
    store.close();
  }
});

test('the store: a scan during which a record is applied is answered but not kept', async () => {
  const store = await storeWithManyIssues('change');
  try {
    // A first write first: it loads the store's commands (lib/store/writes-loader.ts) and takes the
    // lock, which on a loaded machine took longer than the whole scan, so the write below came after it.
    await store.addComment('PROJ-102', { body: 'Warm.' });
    const scanned = store.searchIssuesYielding(SCANNED);
    assert.instance(scanned, Promise);
    let ended = false;
    void Promise.resolve(scanned).then(() => (ended = true));
    await store.addComment('PROJ-101', { body: 'Seen.' });
    assert.not.ok(ended, 'the record was applied while the scan paused');
    store.getProjectStats('PROJ'); // a question asked after the change: the cache is at the new revision
    const page = await scanned;
    assert.ok(page.total > 1_000);
    assert.instance(store.searchIssuesYielding(SCANNED), Promise, 'not kept: it may mix issues from before and after');
  } finally {
    store.close();
  }
});

test('through the server: an indexed search_issues is answered before the call returns; a scan later, rightly', async () => {
  const store = await storeWithManyIssues('server');
  try {
    const t = transcript(createTrackerServer(store).definition);
    await t.initialize('2025-11-25');
    const call = (id: number, args: object): void =>
      t.client({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_issues', arguments: args } });

    const sent = t.routes.length;
    call(1, INDEXED);
    assert.is(t.routes.length, sent + 1, 'answered within the call: no pause, no promise');
    call(2, SCANNED);
    assert.is(t.routes.length, sent + 1, 'a scan is answered after its pauses');
    const answers = (await t.until((messages) => messages.some((message) => message.id === 2))) as any[];
    const byId = (id: number) => answers.find((message) => message.id === id)?.result;
    assert.is(byId(1).structuredContent.total, store.searchIssues(INDEXED).total);
    const whole = store.searchIssues(SCANNED);
    assert.equal(
      [byId(2).structuredContent.issues.map((issue: { key: string }) => issue.key), byId(2).structuredContent.total],
      [keysOf(whole), whole.total],
    );
  } finally {
    store.close();
  }
});

test.run();
