// The snapshot beside the journal (journal-snapshot.ts): an open from it answers exactly as a
// replay of the journal does; any doubt about it means a replay, said on stderr; and a kill or
// a full disk while it is written never costs an acknowledged write.
//
// This file is also the child program of its kill test: run with SNAPSHOT_CHILD set to a data
// file, it opens the store, adds one comment (printing its body once acknowledged) and closes,
// which writes a snapshot, over and over until it is killed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, type Logger, type TrackerStore } from '../store/index.js';
import { createJournal } from '../store/journal/journal.js';
import { SNAPSHOT_VERSION } from '../store/journal/journal-snapshot.js';
import { PIECE_BYTES, readSlotInTurns, slotBytes } from '../store/journal/snapshot-slot.js';
import type { IssueEntry } from '../store/state/issue-table.js';
import type { RecordDraft } from '../store/model/record-schema.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const childFile = process.env['SNAPSHOT_CHILD'];
if (childFile === undefined) defineTests();
else
  runChild(childFile).catch((error: unknown) => {
    process.stderr.write(`child failed: ${(error as Error).stack}\n`);
    process.exit(1);
  });

/** The child: open, one acknowledged comment, close (a snapshot is written), again and again. */
async function runChild(file: string): Promise<void> {
  for (let round = 0; ; round++) {
    const store = await openStore({
      path: file,
      log: (level, message) => process.stderr.write(`${level}: ${message}\n`),
      watch: false,
    });
    const body = `round ${round} of ${process.pid}`;
    await store.addComment('PROJ-1', { body });
    process.stdout.write(`${body}\n`);
    store.close();
  }
}

function defineTests(): void {
  const directories: string[] = [];

  function tempFile(): string {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-snapshot-'));
    directories.push(directory);
    return path.join(directory, 'tracker.jsonl');
  }

  function recordingLogger(): { log: Logger; lines: string[] } {
    const lines: string[] = [];
    return { log: (level, message) => lines.push(`${level}: ${message}`), lines };
  }

  const open = (file: string, log: Logger = () => {}): Promise<TrackerStore> => openStore({ path: file, log, watch: false });
  const snapshotOf = (file: string): string => `${file}.snapshot`;

  /** A demo file with one of each kind of change after the demo records, closed cleanly. */
  async function busyFile(): Promise<string> {
    const file = tempFile();
    const store = await open(file);
    await store.updateStatus('PROJ-101', 'in_review');
    await store.addComment('PROJ-104', { body: 'First look.' });
    await store.assignIssue('PROJ-102', 'bob');
    await store.linkIssues('PROJ-101', 'blocks', 'PROJ-102');
    await store.addAttachment('PROJ-103', { name: 'trace.txt', mimeType: 'text/plain', content: 'aGVsbG8=' });
    await store.updateIssue('PROJ-104', { title: 'A better title', labels: ['snapshot'] });
    const sprint = store.listSprints({ project: 'PROJ', state: 'active' })[0];
    if (sprint !== undefined) await store.moveToSprint('PROJ-105', sprint.id);
    await store.createIssue({ project: 'WEB', title: 'Made before the close' });
    await store.savePerson({ handle: 'zoe', name: 'Zoë Ångström', aliases: ['557058:zoe'] });
    store.close();
    return file;
  }

  /** Everything a client can read that the snapshot could get wrong. */
  function answers(store: TrackerStore): unknown {
    const exported = store.exportSnapshot();
    const keys = exported.issues.map((issue) => issue.key);
    return {
      exported,
      history: keys.map((key) => store.getHistory(key, 100)),
      links: keys.map((key) => store.getIssueLinks(key)),
      transitions: keys.map((key) => store.getTransitions(key)),
      burndowns: store.listSprints().map((sprint) => store.getSprintBurndown(sprint.id)),
      stats: store.listProjects().map((project) => store.getProjectStats(project.key)),
      search: store.searchIssues({ query: 'text ~ title OR status = todo' }),
      assignees: store.completeAssignees(''),
      people: store.listPeople(),
      // The directory's name index, rebuilt from the snapshot's people: a name finds its handle.
      byName: store.listPeople().people.map((person) => store.personHandle(person.email ?? person.name)),
    };
  }

  /** What the journal alone says: a copy of it opened without the snapshot. */
  async function replayed(file: string): Promise<unknown> {
    const copy = path.join(path.dirname(file), 'replayed.jsonl');
    fs.copyFileSync(file, copy);
    fs.rmSync(snapshotOf(copy), { force: true });
    const store = await open(copy);
    try {
      return answers(store);
    } finally {
      store.close();
      fs.rmSync(snapshotOf(copy), { force: true });
      fs.rmSync(copy);
    }
  }

  async function answersOf(file: string, log: Logger = () => {}): Promise<unknown> {
    const store = await open(file, log);
    try {
      return answers(store);
    } finally {
      store.close();
    }
  }

  test.after(() => {
    for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
  });

  test('a clean close leaves a snapshot, and the next open from it answers as a replay does', async () => {
    const file = await busyFile();
    assert.ok(fs.existsSync(snapshotOf(file)), 'no snapshot after a clean close');
    const { log, lines } = recordingLogger();
    assert.equal(await answersOf(file, log), await replayed(file));
    assert.equal(lines, [], 'the snapshot was trusted without a word');
  });

  test('changes after an open from a snapshot, and after its unread issues, survive the next snapshot', async () => {
    const file = await busyFile();
    const store = await open(file);
    await store.addComment('PROJ-101', { body: 'after the snapshot' });
    await store.updateStatus('PROJ-102', 'in_progress');
    await store.createIssue({ project: 'PROJ', title: 'Newer than the snapshot' });
    store.close(); // a second snapshot: the issues nobody read are copied from the first unparsed
    const reopened = await open(file);
    assert.ok(reopened.getIssue('PROJ-101').comments.some((c) => c.body === 'after the snapshot'));
    reopened.close();
    assert.equal(await answersOf(file), await replayed(file));
  });

  test('records appended after the snapshot are replayed on top of it', async () => {
    const file = await busyFile();
    const older = fs.readFileSync(snapshotOf(file));
    const store = await open(file);
    await store.addComment('PROJ-101', { body: 'in the tail' });
    store.close();
    fs.writeFileSync(snapshotOf(file), older); // as if this process had been killed before its close
    const { log, lines } = recordingLogger();
    const reopened = await open(file, log);
    assert.ok(reopened.getIssue('PROJ-101').comments.some((c) => c.body === 'in the tail'));
    reopened.close();
    assert.equal(lines, []);
    assert.equal(await answersOf(file), await replayed(file));
  });

  /** Each way a snapshot can disagree: it is not used, the reason is logged, the answers are the journal's. */
  const doubts: [string, (file: string) => void, RegExp, 'long file'?][] = [
    ['a byte of an issue flipped', (file) => flipByte(snapshotOf(file), 5000), /checksum of its issues is wrong/],
    [
      'a byte of the index flipped',
      (file) => flipByte(snapshotOf(file), 4096 + headerOf(snapshotOf(file)).issuesBytes + 3),
      /checksum of its index is wrong/,
    ],
    ['cut short', (file) => fs.truncateSync(snapshotOf(file), 6000), /size is not what its header says/],
    ['not a snapshot at all', (file) => fs.writeFileSync(snapshotOf(file), 'hello'), /shorter than its header/],
    ['a newer version', (file) => rewriteHeader(snapshotOf(file), `"version":${SNAPSHOT_VERSION}`, '"version":9'), /version 9/],
    ['the journal cut below its offset', (file) => fs.truncateSync(file, 200), /journal is shorter/],
    [
      'the journal changed before its offset',
      (file) => editJournal(file, 'First look.', 'First LOOK.'),
      /journal changed before/,
    ],
    ['another journal in its place', (file) => editJournal(file, '"created_at":"', '"created_at":"1'), /another journal/],
    // The checksums read their parts a chunk at a time (64 KiB): a long discussion puts these past the first.
    [
      'the journal changed in its last chunk before its offset',
      (file) => editJournal(file, 'The last word.', 'The last WORD.'),
      /journal changed before/,
      'long file',
    ],
    [
      'a byte of the issues flipped in their last chunk',
      (file) => flipByte(snapshotOf(file), 4096 + headerOf(snapshotOf(file)).issuesBytes - 100),
      /checksum of its issues is wrong/,
      'long file',
    ],
  ];
  /** The busy file, and a discussion of 145 KB on one issue after it, so the checksums read several chunks. */
  async function longFile(): Promise<string> {
    const file = await busyFile();
    const store = await open(file);
    for (let n = 0; n < 16; n++) await store.addComment('PROJ-105', { body: `${n}: ${'A long look. '.repeat(700)}` });
    await store.addComment('PROJ-105', { body: 'The last word.' });
    store.close();
    assert.ok(fs.statSync(file).size > 2 * 65_536);
    assert.ok(headerOf(snapshotOf(file)).issuesBytes > 2 * 65_536);
    return file;
  }
  for (const [what, spoil, reason, size] of doubts) {
    test(`a snapshot in doubt is not used, and says why: ${what}`, async () => {
      const file = size === 'long file' ? await longFile() : await busyFile();
      spoil(file);
      const { log, lines } = recordingLogger();
      let ours: unknown;
      try {
        ours = await answersOf(file, log);
      } catch (error) {
        ours = `open failed: ${(error as Error).message}`;
      }
      assert.match(lines.join('\n'), /\.snapshot: not used \(.*\); replaying the journal instead/);
      assert.match(lines.join('\n'), reason);
      let journal: unknown;
      try {
        journal = await replayed(file);
      } catch (error) {
        journal = `open failed: ${(error as Error).message.replaceAll('replayed.jsonl', 'tracker.jsonl')}`;
      }
      assert.equal(ours, journal);
    });
  }

  /** Queries of every kind the indexes answer: fields, words, dates, orders walked from an index. */
  const INDEXED_QUERIES = [
    'status = todo',
    'assignee = bob OR labels = snapshot',
    'text ~ "first look" OR text ~ tail OR text ~ newer',
    'text ~ title AND NOT status = done ORDER BY updated DESC',
    'created >= -1d ORDER BY created DESC, key',
    'project = WEB OR priority IN (P0, P1) ORDER BY priority, updated DESC',
    'sprint IS EMPTY ORDER BY assignee, key DESC',
  ];

  /** The indexed queries, and one `text ~ word` for each word of the issues' titles, descriptions and comments. */
  function indexedAnswers(store: TrackerStore): unknown {
    const texts = store
      .exportSnapshot()
      .issues.flatMap((issue) => [issue.title, issue.description, ...issue.comments.map((comment) => comment.body)]);
    const words = [
      ...new Set(
        texts
          .join(' ')
          .toLowerCase()
          .match(/[a-z]{3,}/g) ?? [],
      ),
    ].sort();
    const queries = [...INDEXED_QUERIES, 'text ~ better', ...words.map((word) => `text ~ "${word}"`)];
    return queries.map((query) => [query, store.searchIssues({ query, limit: 100 })]);
  }

  async function queryAnswers(file: string, log: Logger = () => {}): Promise<unknown> {
    const store = await open(file, log);
    try {
      return indexedAnswers(store);
    } finally {
      store.close();
    }
  }

  async function replayedQueryAnswers(file: string): Promise<unknown> {
    const copy = path.join(path.dirname(file), 'replayed.jsonl');
    fs.copyFileSync(file, copy);
    fs.rmSync(snapshotOf(copy), { force: true });
    try {
      return await queryAnswers(copy);
    } finally {
      fs.rmSync(snapshotOf(copy), { force: true });
      fs.rmSync(copy);
    }
  }

  test('the query indexes come from the snapshot, with the changes since it (replayed and new) brought in', async () => {
    const file = await busyFile();
    const older = fs.readFileSync(snapshotOf(file));
    const tail = await open(file);
    await tail.addComment('PROJ-101', { body: 'in the tail' });
    await tail.updateIssue('PROJ-104', { title: 'Retitled in the tail', labels: [] });
    await tail.updateStatus('PROJ-102', 'in_progress');
    tail.close();
    fs.writeFileSync(snapshotOf(file), older); // the tail's records are replayed over the older snapshot
    const store = await open(file);
    await store.createIssue({ project: 'WEB', title: 'Newer than the snapshot', priority: 'P0' });
    await store.assignIssue('PROJ-103', 'bob');
    await store.addComment('PROJ-105', { body: 'First look again' });
    const ours = indexedAnswers(store);
    store.close();
    fs.writeFileSync(snapshotOf(file), older);
    const copy = path.join(path.dirname(file), 'expected.jsonl');
    fs.copyFileSync(file, copy);
    const expected = await replayedQueryAnswers(copy);
    fs.rmSync(copy);
    assert.equal(ours, expected);
    // A snapshot written after a replay holds indexes that answer as built ones do; so does the
    // next, written from indexes loaded from that one (words nobody asked for copied over).
    fs.rmSync(snapshotOf(file));
    (await open(file)).close();
    assert.equal(await queryAnswers(file), await replayedQueryAnswers(file));
    const quiet = await open(file);
    await quiet.addComment('PROJ-101', { body: 'once more, with no query before the close' });
    quiet.close();
    assert.equal(await queryAnswers(file), await replayedQueryAnswers(file));
  });

  test('query indexes in doubt are not used, and say why: the store opens from the snapshot and answers as built indexes do', async () => {
    const file = await busyFile();
    const { issuesBytes, indexBytes } = headerOf(snapshotOf(file));
    flipByte(snapshotOf(file), 4096 + issuesBytes + indexBytes + 3);
    const { log, lines } = recordingLogger();
    const ours = await queryAnswers(file, log);
    assert.not.match(lines.join('\n'), /replaying the journal/);
    assert.match(
      lines.join('\n'),
      /\.snapshot: its query indexes are not used \(their checksum is wrong\); building them from the issues/,
    );
    assert.equal(ours, await replayedQueryAnswers(file));
  });

  /** A closed demo file whose PROJ-101 has 40 comments of 10,000 characters: a slot of several pieces. */
  async function fileWithLargeIssue(): Promise<string> {
    const file = tempFile();
    const store = await open(file);
    const tricky = 'a "quote", a \\ backslash,\na line, \u2028 a separator, \u{1F600} an emoji, ';
    for (let i = 0; i < 40; i++) await store.addComment('PROJ-101', { body: `${i} ${tricky}`.padEnd(10_000, 'x') });
    store.close();
    return file;
  }

  /** Counts turns of the event loop until stopped: how many passed while something ran. */
  function turnCounter(): { stop: () => number } {
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    return { stop: () => ((counting = false), turns) };
  }

  test('a large issue opened from a snapshot is read a piece a turn, and is the issue a replay reads', async () => {
    const file = await fileWithLargeIssue();
    const fromReplay = await replayed(file);
    const store = await open(file);
    try {
      const counter = turnCounter();
      const reading = store.getIssueInTurns('PROJ-101');
      assert.ok(reading instanceof Promise, 'a slot of several pieces is read in turns');
      const second = store.getIssueInTurns('PROJ-101');
      const issue = await reading;
      assert.is(await second, issue, 'a second reader gets the same issue');
      const turns = counter.stop();
      assert.ok(turns >= Math.floor((40 * 10_000) / PIECE_BYTES), `read in ${turns} turns`);
      assert.is(store.getIssueInTurns('PROJ-101'), issue, 'read once, then answered at once');
      assert.not.ok(store.getIssueInTurns('PROJ-102') instanceof Promise, 'a small issue is read at once');
      assert.equal(answers(store), fromReplay);
    } finally {
      store.close();
    }
  });

  test('a change made while a large issue is read in turns stays: the reading does not put the old issue back', async () => {
    const file = await fileWithLargeIssue();
    const store = await open(file);
    try {
      const reading = store.getIssueInTurns('PROJ-101');
      await new Promise((resolve) => setImmediate(resolve));
      await store.addComment('PROJ-101', { body: 'Made while it was read.' });
      await reading;
      const comments = store.getIssue('PROJ-101').comments;
      assert.is(comments.filter((comment) => comment.body.length === 10_000).length, 40);
      assert.is(comments.at(-1)?.body, 'Made while it was read.');
    } finally {
      store.close();
    }
  });

  test('a store closed while a large issue is read in turns: the reading fails, nothing crashes', async () => {
    const file = await fileWithLargeIssue();
    const store = await open(file);
    const reading = store.getIssueInTurns('PROJ-101');
    store.close();
    const failure = await (reading as Promise<unknown>).then(
      () => null,
      (error: unknown) => error as Error,
    );
    assert.match(failure?.message ?? 'it did not fail', /could not be read back/);
  });

  test('a slot line longer than a piece is read whole, in one piece of its own', async () => {
    const store = await open(tempFile());
    try {
      const issue = store.getIssue('PROJ-101');
      const description = 'd'.repeat(3 * PIECE_BYTES);
      const entry: IssueEntry = { issue: { ...issue, description, comments: issue.comments }, comments: [], history: [] };
      const bytes = slotBytes(entry);
      const pieces: number[] = [];
      const readAt = (buffer: Buffer, length: number, offset: number) => (
        pieces.push(length),
        bytes.copy(buffer, 0, offset, offset + length)
      );
      const read = await readSlotInTurns(bytes.length, 'PROJ-101', readAt);
      assert.is(read?.issue.description, description);
      assert.ok(
        pieces.some((length) => length > PIECE_BYTES),
        `pieces read: ${pieces.join(', ')}`,
      );
      assert.is(await readSlotInTurns(bytes.length, 'PROJ-102', readAt), null, "another issue's slot");
      assert.is(await readSlotInTurns(bytes.length - 1, 'PROJ-101', readAt), null, 'a slot cut short');
    } finally {
      store.close();
    }
  });

  test('a snapshot that cannot be written (a full disk) is skipped: the close succeeds and nothing is lost', async () => {
    const file = await busyFile();
    const store = await open(file);
    await store.addComment('PROJ-101', { body: 'before the full disk' });
    const write = fs.writeSync;
    (fs as { writeSync: unknown }).writeSync = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const { log, lines } = recordingLogger();
    try {
      // The close's snapshot fails on its first write; the journal is not written to at all.
      const failing = await openStore({ path: file, log, watch: false });
      failing.close();
      store.close();
    } finally {
      (fs as { writeSync: unknown }).writeSync = write;
    }
    assert.match(lines.join('\n'), /no snapshot written \(ENOSPC/);
    assert.equal(
      fs.readdirSync(path.dirname(file)).filter((name) => name.includes('.new-')),
      [],
      'the temporary file was removed',
    );
    const reopened = await open(file);
    assert.ok(reopened.getIssue('PROJ-101').comments.some((c) => c.body === 'before the full disk'));
    reopened.close();
    assert.equal(await answersOf(file), await replayed(file));
  });

  test('killed at random moments while it writes snapshots, the store reopens with every acknowledged write', async () => {
    const file = tempFile();
    // Large enough that writing a snapshot takes a while, so the kills land inside the writes too.
    createJournal(file, bigJournal(3_000), new Date());
    const acknowledged: string[] = [];
    for (let kill = 0; kill < 12; kill++) {
      const child = spawn(process.execPath, ['--import', 'tsx', THIS_FILE], {
        env: { ...process.env, SNAPSHOT_CHILD: file },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => acknowledged.push(line));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
      await waitFor(() => acknowledged.length > kill);
      await new Promise((resolve) => setTimeout(resolve, 20 + ((kill * 37) % 150)));
      child.kill('SIGKILL');
      assert.is(await exited, 'SIGKILL', `the child ended by itself: ${stderr}`);
      assert.not.match(stderr, /child failed/);
    }
    const store = await open(file);
    const bodies = new Set(store.getIssue('PROJ-1').comments.map((c) => c.body));
    store.close();
    for (const body of acknowledged) assert.ok(bodies.has(body), `acknowledged "${body}" is missing`);
    assert.equal(await answersOf(file), await replayed(file));
  });

  function headerOf(file: string): { issuesBytes: number; indexBytes: number } {
    return JSON.parse(fs.readFileSync(file).toString('utf8', 0, 4096)) as { issuesBytes: number; indexBytes: number };
  }

  function flipByte(file: string, position: number): void {
    const bytes = fs.readFileSync(file);
    bytes[position] = (bytes[position] as number) ^ 0x01;
    fs.writeFileSync(file, bytes);
  }

  function rewriteHeader(file: string, from: string, to: string): void {
    const bytes = fs.readFileSync(file);
    const header = bytes.toString('utf8', 0, 4096);
    assert.ok(header.includes(from));
    bytes.write(header.replace(from, to).slice(0, 4096), 0, 'utf8');
    fs.writeFileSync(file, bytes);
  }

  /** Replaces text in the journal with text of the same length, so every offset stays where it was. */
  function editJournal(file: string, from: string, to: string): void {
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes(from));
    const edited = text.replace(from, to);
    fs.writeFileSync(file, to.length === from.length ? edited : edited.slice(0, text.length));
  }

  async function waitFor(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the child');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** One project and `count` issues. */
  function bigJournal(count: number): RecordDraft[] {
    const drafts: RecordDraft[] = [
      { type: 'project.created', project: { key: 'PROJ', name: 'Big', description: '', lead: 'alice' } },
    ];
    const at = new Date().toISOString();
    for (let n = 1; n <= count; n++) {
      drafts.push({
        type: 'issue.created',
        issue: {
          key: `PROJ-${n}`,
          project: 'PROJ',
          title: `Issue number ${n}`,
          description: 'Some words to make the issue as long as a real one. '.repeat(4),
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
        },
      });
    }
    return drafts;
  }

  test.run();
}
