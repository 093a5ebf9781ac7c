// An issue's history: every change, who made it and when, newest first and bounded, read back
// the same after the file is opened again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HISTORY_SHOWN_MAX, isDomainError, openStore, type TrackerStore } from '../store/index.js';

const directories: string[] = [];
test.after(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

function dataFile(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-history-'));
  directories.push(directory);
  return path.join(directory, 'tracker.jsonl');
}

let minute = 0;
const clock = () => new Date(Date.UTC(2026, 0, 5, 9, minute++));
const open = (file: string, user?: string): Promise<TrackerStore> =>
  openStore({ path: file, log: () => {}, watch: false, now: clock, user });

const lines = (store: TrackerStore, key: string, limit?: number) =>
  store.getHistory(key, limit).entries.map((e) => `${e.by ?? '?'} ${e.type}: ${e.change}`);

test('who changed what, newest first; both ends of a link; the creation last; the same after reopening', async () => {
  const file = dataFile();
  const store = await open(file, 'dmitri');
  await store.savePerson({ handle: 'erin', name: 'Erin Park' }); // a newcomer joins the directory first
  const before = store.getHistory('PROJ-104').total;
  await store.updateIssue('PROJ-104', { status: 'in_progress', assignee: 'erin' });
  await store.addComment('PROJ-104', { body: 'On it.', author: 'erin' });
  await store.linkIssues('PROJ-108', 'blocks', 'PROJ-104');
  await store.addAttachment('PROJ-104', { name: 'log.txt', mimeType: 'text/plain', content: 'aGk=' });
  const expected = [
    'dmitri attachment_added: log.txt (text/plain, 2 bytes) attached to PROJ-104 by dmitri',
    'dmitri linked: PROJ-108 now blocks PROJ-104',
    'erin commented: Comment #1 by erin added to PROJ-104',
    'dmitri status_changed: PROJ-104 status: todo → in_progress',
    'dmitri assigned: PROJ-104 assigned to erin (was unassigned)',
  ];
  const history = store.getHistory('proj-104');
  assert.is(history.key, 'PROJ-104');
  assert.is(history.total, before + expected.length);
  assert.equal(lines(store, 'PROJ-104').slice(0, expected.length), expected);
  const created = history.entries.at(-1);
  assert.equal([created?.type, created?.seq, created?.change], ['created', null, 'PROJ-104 created']);
  assert.equal(lines(store, 'PROJ-108', 1), ['dmitri linked: PROJ-108 now blocks PROJ-104'], 'the other end of the link');
  store.close();

  const again = await open(file);
  assert.equal(lines(again, 'PROJ-104').slice(0, expected.length), expected, 'read back from the journal');
  assert.ok(again.getHistory('PROJ-104').entries.every((e, i, all) => i === 0 || (all[i - 1]?.at ?? '') >= e.at));
  again.close();
});

test(`bounded: the most recent N (default 20, at most ${HISTORY_SHOWN_MAX}) with the total`, async () => {
  const store = await open(dataFile());
  for (let i = 0; i < 30; i++) await store.updateIssue('PROJ-110', { story_points: i });
  const history = store.getHistory('PROJ-110');
  assert.is(history.total, 31);
  assert.is(history.entries.length, 20);
  assert.match(history.entries[0]?.change ?? '', 'PROJ-110 edited: story_points');
  assert.is(store.getHistory('PROJ-110', 3).entries.length, 3);
  assert.is(store.getHistory('PROJ-110', 100).entries.length, 31);
  assert.is(store.getHistory('PROJ-111').total, 1, 'an issue that never changed: its creation');
  for (const limit of [0, 101, 2.5]) {
    try {
      store.getHistory('PROJ-110', limit);
      assert.unreachable(`limit ${limit}`);
    } catch (error) {
      assert.ok(isDomainError(error) && error.message.includes('from 1 to 100'), String(limit));
    }
  }
  store.close();
});

test.run();
