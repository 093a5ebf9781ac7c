// The journal's bounds: issue numbers. A command refused by them writes nothing;
// a line past them is refused on open with file:line and the limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError, isStoreFileError, openStore, type StoreFileError, type TrackerStore } from '../store/index.js';
import { appendRecord, closeJournal, openJournal } from '../store/journal.js';
import { LIMITS } from '../store/schema.js';

const directories: string[] = [];

function tempFile(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-limits-'));
  directories.push(directory);
  return path.join(directory, 'tracker.jsonl');
}

function open(file: string): Promise<TrackerStore> {
  return openStore({ path: file, log: () => {}, watch: false });
}

async function demoFile(): Promise<string> {
  const file = tempFile();
  (await open(file)).close();
  return file;
}

/** The last record of the file, to continue its seq. */
function lastRecord(file: string): { seq: number; at: string } {
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  return JSON.parse(lines.at(-1) ?? '');
}

function lineCount(file: string): number {
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n').length;
}

/** Appends an issue.created record for `key` of project PROJ, as another program might. */
function appendIssue(file: string, key: string): void {
  const { seq, at } = lastRecord(file);
  const issue = {
    key,
    project: 'PROJ',
    title: `Issue ${key}`,
    description: '',
    type: 'task',
    status: 'todo',
    priority: 'P2',
    assignee: null,
    reporter: 'alice',
    story_points: null,
    sprint: null,
    labels: [],
    comments: [],
    created_at: at,
    updated_at: at,
  };
  fs.appendFileSync(file, `${JSON.stringify({ seq: seq + 1, at, type: 'issue.created', issue })}\n`);
}

async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return 'no error: it succeeded';
}

async function openFailure(file: string): Promise<StoreFileError> {
  const error = await failure(async () => (await open(file)).close());
  assert.ok(isStoreFileError(error), `expected a StoreFileError, got ${String(error)}`);
  return error;
}

test.after(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Issue numbers
// ---------------------------------------------------------------------------

test('an issue number past the limit is refused on open, naming the line and the limit', async () => {
  // Past 2^53 the next number rounds back onto an existing key: PROJ-99999999999999999 + 1
  // is PROJ-100000000000000000, twice.
  for (const key of ['PROJ-1000000000', 'PROJ-99999999999999999']) {
    const file = await demoFile();
    appendIssue(file, key);
    const before = fs.readFileSync(file);
    const error = await openFailure(file);
    assert.is(error.reason, 'corrupt');
    assert.is(error.line, lineCount(file));
    assert.match(error.message, 'issue.key: the issue number is above the limit of 999999999');
    assert.equal(fs.readFileSync(file), before);
  }
});

test('a project at the last issue number: create_issue is refused and nothing is written', async () => {
  const file = await demoFile();
  appendIssue(file, `PROJ-${LIMITS.maxIssueNumber}`);
  const store = await open(file);
  assert.is(store.getIssue('PROJ-999999999').title, 'Issue PROJ-999999999', 'a key at the limit opens');
  const before = fs.readFileSync(file);
  for (let attempt = 0; attempt < 2; attempt++) {
    const error = await failure(() => store.createIssue({ project: 'PROJ', title: 'One too many' }));
    assert.ok(isDomainError(error), String(error));
    assert.is(error.code, 'conflict');
    assert.match(error.message, 'Project PROJ has used every issue number up to the limit of 999999999; no issue was created');
  }
  assert.equal(fs.readFileSync(file), before);
  assert.match((await store.createIssue({ project: 'WEB', title: 'Elsewhere' })).issue.key, /^WEB-\d+$/);
  store.close();
  (await open(file)).close();
});

test('an issue key past the limit in an argument is refused with the limit', async () => {
  const store = await open(await demoFile());
  const error = await failure(() => store.getIssue('PROJ-99999999999999999'));
  assert.ok(isDomainError(error), String(error));
  assert.is(error.code, 'invalid_argument');
  assert.match(error.message, 'the issue number is above the limit of 999999999');
  store.close();
});

// ---------------------------------------------------------------------------
// The write path asks the reader's question first
// ---------------------------------------------------------------------------

test('a record that does not fit the data is refused before it reaches the disk', async () => {
  const file = await demoFile();
  const { journal } = openJournal(file);
  const before = fs.readFileSync(file);
  const status = journal.state.issues.get('PROJ-101')?.status;
  const wrongFrom = status === 'done' ? 'todo' : 'done';
  const at = new Date().toISOString();
  const misfits = [
    { type: 'issue.status_changed', key: 'PROJ-101', from: wrongFrom, to: 'in_review' },
    { type: 'issue.status_changed', key: 'PROJ-999', from: 'todo', to: 'done' },
    { type: 'issue.created', issue: { ...journal.state.issues.get('PROJ-101') } },
  ] as const;
  for (const draft of misfits) {
    const error = await failure(() => appendRecord(journal, draft as never, at));
    assert.equal(fs.readFileSync(file), before, draft.type);
    assert.match(String(error), 'refusing to write a journal record that does not fit the data');
  }
  closeJournal(journal);
  const store = await open(file);
  await store.updateStatus('PROJ-101', 'in_review');
  store.close();
});

test.run();
