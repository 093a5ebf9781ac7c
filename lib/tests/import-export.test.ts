// Import and export: Jira CSV in and out, the whole store as JSON, what a refused row and a
// dry run leave on disk (nothing), and parents that come after their children.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeCsv } from '../store/exchange/csv.js';
import { importJiraCsv } from '../store/exchange/import-csv.js';
import type { ImportReport } from '../store/exchange/import-report.js';
import { IMPORT_LIMITS, JiraCsvError, readJiraCsv, writeJiraCsv } from '../store/exchange/jira-csv.js';
import { jiraSampleCsv } from '../store/exchange/jira-csv-sample.js';
import { importSnapshot } from '../store/exchange/snapshot-import.js';
import { openStore, type Comment, type Issue, type TrackerStore } from '../store/index.js';

const NOW = new Date('2026-12-02T09:00:00.000Z');
const directories: string[] = [];
test.after(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

function newPath(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-io-'));
  directories.push(directory);
  return path.join(directory, 'tracker.jsonl');
}

/** A journal with the demo data (seed) or none. */
async function open(seed: boolean, file = newPath()): Promise<TrackerStore> {
  return openStore({ path: file, log: () => {}, watch: false, seed, now: () => NOW });
}

const run = (store: TrackerStore, text: string, dryRun = false): Promise<ImportReport> =>
  importJiraCsv(store, text, { dryRun, now: () => NOW });

const csv = (...rows: string[][]): string => writeCsv(rows);
const HEADER = [
  'Issue key',
  'Summary',
  'Issue Type',
  'Status',
  'Priority',
  'Assignee',
  'Reporter',
  'Sprint',
  'Labels',
  'Labels',
  'Description',
  'Created',
  'Updated',
  'Parent',
];
const row = (key: string, summary: string, more: Partial<Record<string, string>> = {}): string[] =>
  HEADER.map((column, index) =>
    index === 0 ? key : index === 1 ? summary : (more[column] ?? (column === 'Reporter' ? 'alice' : '')),
  );

const allIssues = (store: TrackerStore): Issue[] => store.exportSnapshot().issues;

test('JSON round trip: export, import into an empty store, export again: the same document', async () => {
  const demo = await open(true);
  await demo.linkIssues('PROJ-104', 'relates_to', 'PROJ-101');
  await demo.addAttachment('PROJ-102', { name: 'trace.txt', mimeType: 'text/plain', content: 'dGltZW91dA==', author: 'bob' });
  const first = JSON.stringify(demo.exportSnapshot(), null, 2);
  const copy = await open(false);
  const counts = await importSnapshot(copy, JSON.parse(first));
  assert.equal(counts, { projects: 2, sprints: 6, issues: 17, links: 4, attachments: 1, people: 5 });
  assert.equal(copy.listPeople(), demo.listPeople());
  assert.equal(copy.getAttachment('PROJ-102', 'trace.txt'), demo.getAttachment('PROJ-102', 'trace.txt'));
  assert.is(JSON.stringify(copy.exportSnapshot(), null, 2), first);
  // The copy is a store like any other: its links and comments answer as the original's do.
  assert.equal(copy.getLinkKeys('PROJ-101'), demo.getLinkKeys('PROJ-101'));
  assert.equal(copy.getIssue('PROJ-102').comments, demo.getIssue('PROJ-102').comments);
});

test('a JSON export goes only into an empty store, and a document of another shape is refused naming where', async () => {
  const demo = await open(true);
  const snapshot = demo.exportSnapshot();
  try {
    await importSnapshot(demo, snapshot);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, 'A JSON export goes into an empty store');
  }
  const { parseSnapshot } = await import('../store/model/snapshot-format.js');
  assert.throws(
    () => parseSnapshot({ ...snapshot, watchers: [] }),
    (error: Error) =>
      error.message === 'Not an mcp-tracker export this version can read: the document has a field it does not know: watchers.',
  );
  assert.throws(
    () => parseSnapshot({ ...snapshot, issues: [{ key: 'PROJ-1' }] }),
    (error: Error) => error.message === 'Not an mcp-tracker export this version can read: at issues.0.project: Invalid input.',
  );
});

test('people in a JSON export: a document without them (before they were exported) still imports; a refused person is named by where it is', async () => {
  const demo = await open(true);
  const { people, ...older } = demo.exportSnapshot();
  assert.is(people?.length, 5);
  const copy = await open(false);
  assert.is((await importSnapshot(copy, older)).people, 0);
  assert.is(copy.exportSnapshot().people, undefined, 'no directory: nobody carried but the handles the issues name');
  assert.equal(copy.getIssue('PROJ-101'), demo.getIssue('PROJ-101'));

  // bob's e-mail given to carol too: the store's own check refuses it, and the error says which entry.
  const taken = people!.map((person) => (person.handle === 'carol' ? { ...person, email: 'BOB.jones@example.com' } : person));
  try {
    await importSnapshot(await open(false), { ...older, people: taken });
    assert.unreachable();
  } catch (error) {
    assert.is(
      (error as Error).message,
      "people.2 (carol): 'bob.jones@example.com' is already bob's; an e-mail or alias names one person.",
    );
  }
  const { parseSnapshot } = await import('../store/model/snapshot-format.js');
  assert.throws(
    () => parseSnapshot({ ...older, people: [{ ...people![0], phone: '555' }] }),
    (error: Error) =>
      error.message === 'Not an mcp-tracker export this version can read: people.0 has a field it does not know: phone.',
  );
});

test('CSV round trip: export, import into an empty store, export again: the same bytes, comments included', async () => {
  const demo = await open(true);
  await demo.addComment('PROJ-104', { body: 'Needs design; see "cards v2", then ship.\nSecond line.', author: 'carol' });
  await demo.addComment('PROJ-104', { body: 'Agreed.', author: 'dmitri' });
  const text = writeJiraCsv(demo.exportSnapshot());
  const copy = await open(false);
  const report = await run(copy, text);
  assert.is(report.refused.length, 0, JSON.stringify(report.refused));
  assert.is(report.imported.length, 17);
  assert.ok(
    report.imported.every((entry) => entry.from === entry.key),
    'every key kept',
  );
  assert.is(writeJiraCsv(copy.exportSnapshot()), text);
  const sprintName = (store: TrackerStore, id: string | null) => (id === null ? null : store.getSprint(id).name);
  // A comment's time goes through Jira's form, which has minutes and no seconds.
  const toTheMinute = (comments: readonly Comment[]) =>
    comments.map((comment) => ({ ...comment, created_at: `${comment.created_at.slice(0, 16)}:00.000Z` }));
  const comparable = (store: TrackerStore) =>
    allIssues(store).map(({ comments, sprint, ...fields }) => ({
      ...fields,
      comments: toTheMinute(comments),
      sprint: sprintName(store, sprint),
    }));
  assert.equal(comparable(copy), comparable(demo));
  assert.equal(
    copy
      .getIssue('PROJ-104')
      .comments.slice(-2)
      .map((comment) => [comment.author, comment.body]),
    [
      ['carol', 'Needs design; see "cards v2", then ship.\nSecond line.'],
      ['dmitri', 'Agreed.'],
    ],
  );
  assert.equal(copy.listProjects(), demo.listProjects());
  const links = (store: TrackerStore) =>
    store
      .exportSnapshot()
      .links.map((l) => `${l.from} ${l.type} ${l.to}`)
      .sort();
  assert.equal(links(copy), links(demo));
  assert.is(report.issuesLinked, 3);
});

test('refused rows: each with its row number and reason, none of them reaches the disk, and none refuses another', async () => {
  const file = newPath();
  const store = await open(false, file);
  const text = csv(
    HEADER,
    row('OPS-1', 'Fine', { Status: 'In Progress', Priority: 'Highest', 'Issue Type': 'Sub-task' }),
    row('OPS-2', 'Bad status', { Status: 'Waiting' }),
    row('OPS-3', '', {}),
    row('not a key', 'Bad key'),
    row('OPS-5', 'Too long', { Description: 'x'.repeat(10_001) }),
    row('OPS-6', 'A sub-task of a task', { Parent: 'OPS-1' }),
    row('OPS-7', 'A display name', { Assignee: 'Alice Smith' }),
    [...row('OPS-8', 'Extra cells'), 'surplus'],
    row('OPS-9', 'Child of a refused epic', { Parent: 'OPS-10' }),
    row('OPS-10', 'Refused epic', { 'Issue Type': 'Epic', Priority: 'Urgent' }),
  );
  const report = await run(store, text);
  assert.equal(
    report.imported.map((entry) => entry.key),
    ['OPS-1', 'OPS-6', 'OPS-7', 'OPS-9'],
  );
  assert.equal(
    report.refused.map((r) => `${r.row}: ${r.reason.split('. ')[0]}`),
    [
      "3: Unknown status 'Waiting'",
      '4: Title must not be empty.',
      "5: Invalid issue key 'not a key'",
      '6: Description is 10001 characters long; the limit is 10000.',
      '9: the row cannot be read: it has 15 cells; the header has 14 columns',
      "11: Unknown priority 'Urgent'",
    ],
  );
  // The child of the refused epic is imported without its parent, and the report says so.
  assert.equal(report.linksLeftOut, ['row 10 (OPS-9): its parent OPS-10: row 11, that issue, was refused']);
  assert.equal(
    allIssues(store).map((issue) => [issue.key, issue.status, issue.assignee, issue.parent ?? null]),
    [
      ['OPS-1', 'in_progress', null, null],
      ['OPS-6', 'todo', null, 'OPS-1'],
      ['OPS-7', 'todo', 'alice.smith', null],
      ['OPS-9', 'todo', null, null],
    ],
  );
  assert.ok(report.mapped.includes('Alice Smith → alice.smith (display name)'), report.mapped.join('\n'));
  // On disk: the header, the project, the four issues, the one parent and the two people the rows
  // named (the people directory): no trace of a refused row.
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(
    lines.slice(1).map((line) => JSON.parse(line).type),
    ['project.created', ...Array<string>(4).fill('issue.created'), 'issue.parent_changed', 'person.saved', 'person.saved'],
  );
});

test('a dry run reports what a real run does and leaves the journal byte for byte as it was', async () => {
  const file = newPath();
  const demo = await open(true, file);
  const text = csv(
    HEADER,
    row('PROJ-500', 'New', { Sprint: 'Sprint 43' }),
    row('PROJ-7', 'Taken number'),
    row('PROJ-501', 'Bad', { Status: '?' }),
  );
  const before = fs.readFileSync(file);
  const dry = await run(demo, text, true);
  assert.ok(fs.readFileSync(file).equals(before), 'the journal is unchanged');
  assert.is(dry.dryRun, true);
  const real = await run(demo, text);
  assert.equal({ ...dry, dryRun: false }, real);
  // PROJ-7's number is used (the demo has no PROJ-7 now): the row takes the next number.
  assert.equal(real.imported, [
    { row: 3, from: 'PROJ-7', key: 'PROJ-115', comments: 0 },
    { row: 2, from: 'PROJ-500', key: 'PROJ-500', comments: 0 },
  ]);
  assert.is(demo.getIssue('PROJ-500').sprint, 'PROJ-S43');
});

test('parents: a child before its epic is linked in the second pass, through renumbered keys too', async () => {
  const demo = await open(true);
  await run(demo, csv(HEADER, row('PROJ-1000', 'Far ahead: PROJ-115..999 are used numbers now')));
  const text = csv(
    HEADER,
    row('PROJ-203', 'Child, numbered below the epic', { Parent: 'PROJ-201' }),
    row('PROJ-201', 'The epic', { 'Issue Type': 'Epic' }),
    row('PROJ-202', 'Child of an epic already in the store', { Parent: 'PROJ-109' }),
  );
  const report = await run(demo, text);
  assert.is(report.parentsLinked, 2);
  // PROJ-201..203 are below the numbers PROJ has used and not in the store: they get the next ones, in key order.
  assert.equal(
    report.imported.map((entry) => `${entry.from} -> ${entry.key}`),
    ['PROJ-201 -> PROJ-1001', 'PROJ-202 -> PROJ-1002', 'PROJ-203 -> PROJ-1003'],
  );
  assert.is(demo.getIssue('PROJ-1003').parent, 'PROJ-1001');
  assert.is(demo.getIssue('PROJ-1002').parent, 'PROJ-109');
});

test('issue links: outward and inward columns, either end first; a link that cannot be made is left out and named, its row imported', async () => {
  const store = await open(false);
  const header = [
    'Issue key',
    'Summary',
    'Issue Type',
    'Parent',
    'Outward issue link (Blocks)',
    'Outward issue link (Blocks)',
    'Inward issue link (Blocks)',
    'Outward issue link (Relates)',
  ];
  const text = csv(
    header,
    ['OPS-1', 'Blocks two', 'Task', '', 'OPS-2', '', '', ''],
    ['OPS-2', 'Blocked by one (said at both ends), relates to one', 'Task', '', '', '', 'OPS-1', 'OPS-1'],
    ['OPS-3', 'Blocks four', 'Task', '', 'OPS-4', '', '', ''],
    ['OPS-4', 'A sub-task of a task', 'Task', 'OPS-2', '', '', '', ''],
    ['OPS-5', 'Would close a loop', 'Task', '', 'OPS-6', '', 'OPS-6', ''],
    ['OPS-6', 'The other end of the loop', 'Task', '', '', '', '', ''],
  );
  const report = await run(store, text);
  assert.equal(report.refused, []);
  assert.equal(report.linksLeftOut, [
    'row 6 (OPS-5): its link (blocks) with OPS-6: OPS-6 cannot block OPS-5: OPS-5 already blocks OPS-6 (directly or through other issues), and neither could ever start.',
  ]);
  assert.equal(
    report.imported.map((entry) => entry.key),
    ['OPS-1', 'OPS-2', 'OPS-3', 'OPS-4', 'OPS-5', 'OPS-6'],
  );
  assert.is(report.issuesLinked, 4);
  assert.is(store.getIssue('OPS-4').parent, 'OPS-2');
  assert.equal(store.getLinkKeys('OPS-2'), [
    { type: 'is_blocked_by', key: 'OPS-1' },
    { type: 'relates_to', key: 'OPS-1' },
  ]);
  // Export writes each link once, at the end that wrote it.
  const exported = writeJiraCsv(store.exportSnapshot()).split('\r\n');
  assert.ok(exported[0]!.endsWith(',Outward issue link (Blocks),Outward issue link (Relates)'));
  // relates_to reads the same from both ends: it is written from the key that sorts first.
  assert.ok(exported[1]!.startsWith('OPS-1,') && exported[1]!.endsWith(',OPS-2,OPS-2'), exported[1]);
  assert.ok(exported[2]!.startsWith('OPS-2,') && exported[2]!.endsWith(',,'), exported[2]);
});

test("Jira's names and times: forgiving statuses, priorities and types; dd/MMM/yy h:mm AM as UTC", async () => {
  const store = await open(false);
  const text = csv(
    HEADER,
    row('OPS-1', 'One', {
      Status: 'Closed',
      Priority: 'Lowest',
      'Issue Type': 'bug',
      Created: '02/Dec/26 5:28 PM',
      Updated: '2026-12-03T01:00:00Z',
    }),
    row('OPS-2', 'Two', { Status: 'in-progress', Priority: 'p1', Labels: 'API', Created: '9/Jan/2026 12:05 AM' }),
  );
  const report = await run(store, text);
  assert.is(report.refused.length, 0, JSON.stringify(report.refused));
  const [one, two] = allIssues(store);
  assert.equal(
    [one!.status, one!.resolution, one!.priority, one!.type, one!.created_at, one!.updated_at],
    ['done', 'done', 'P3', 'bug', '2026-12-02T17:28:00.000Z', '2026-12-03T01:00:00.000Z'],
  );
  assert.equal(
    [two!.status, two!.priority, two!.labels, two!.created_at],
    ['in_progress', 'P1', ['api'], '2026-01-09T00:05:00.000Z'],
  );
});

test("comments in Jira's Comment columns: time;author;body as Jira exports them, or the body alone", async () => {
  const store = await open(false);
  // The shape of Jira's own export: its column order, repeated Comment columns, its times.
  const text = [
    'Summary,Issue key,Issue id,Issue Type,Status,Project key,Project name,Priority,Assignee,Reporter,Created,Updated,Description,Comment,Comment,Comment',
    'Card form,OPS-1,10001,Story,In Progress,OPS,Operations,High,bob,alice,01/Dec/26 9:00 AM,02/Dec/26 5:28 PM,,' +
      '"02/Dec/26 5:28 PM;bob;Blocked on the API; asking ""payments"", then retrying.",01/Dec/26 10:15 AM;alice;Looks fine,',
    'Logs,OPS-2,10002,Task,To Do,OPS,Operations,Low,,carol,01/Dec/26 9:00 AM,01/Dec/26 9:00 AM,,Just a body; with a semicolon,' +
      '2026-12-01T11:00:00Z;;An ISO time and no author,',
  ].join('\r\n');
  const report = await run(store, text);
  assert.is(report.refused.length, 0, JSON.stringify(report.refused));
  assert.equal(
    report.imported.map((entry) => entry.comments),
    [2, 2],
  );
  assert.equal(store.getIssue('OPS-1').comments, [
    {
      id: 1,
      author: 'bob',
      body: 'Blocked on the API; asking "payments", then retrying.',
      created_at: '2026-12-02T17:28:00.000Z',
    },
    { id: 2, author: 'alice', body: 'Looks fine', created_at: '2026-12-01T10:15:00.000Z' },
  ]);
  // The body alone: written by the importing user when the issue was created.
  assert.equal(store.getIssue('OPS-2').comments, [
    { id: 1, author: 'assistant', body: 'Just a body; with a semicolon', created_at: '2026-12-01T09:00:00.000Z' },
    { id: 2, author: 'assistant', body: 'An ISO time and no author', created_at: '2026-12-01T11:00:00.000Z' },
  ]);
  // Export writes them back in Jira's form, one Comment column per comment of the issue with the most.
  const [header, first] = writeJiraCsv(store.exportSnapshot()).split('\r\n');
  assert.ok(header!.endsWith(',Comment,Comment'), header);
  assert.ok(
    first!.endsWith(
      ',"02/Dec/26 5:28 PM;bob;Blocked on the API; asking ""payments"", then retrying.",01/Dec/26 10:15 AM;alice;Looks fine',
    ),
    first,
  );
});

test('a comment the store refuses refuses its row, named with its row, line and comment; nothing of it is written; a display name is a handle', async () => {
  const file = newPath();
  const store = await open(false, file);
  const text = csv(
    [...HEADER, 'Comment', 'Comment'],
    [...row('OPS-1', 'Fine'), '02/Dec/26 5:28 PM;bob;ok', ''],
    [...row('OPS-2', 'Long comment'), 'fine', `02/Dec/26 5:28 PM;bob;${'x'.repeat(10_001)}`],
    [...row('OPS-3', 'Display name'), '02/Dec/26 5:28 PM;Bob Smith;hello', ''],
    [...row('OPS-4', 'Empty body'), '02/Dec/26 5:28 PM;bob; ', ''],
  );
  const report = await run(store, text);
  assert.equal(
    report.refused.map((refusal) => [refusal.row, refusal.line, refusal.key, refusal.reason]),
    [
      [3, 3, 'OPS-2', 'Comment 2 is 10001 characters long; the limit is 10000.'],
      [5, 5, 'OPS-4', 'Comment 1 must not be empty.'],
    ],
  );
  assert.equal(
    allIssues(store).map((issue) => issue.key),
    ['OPS-1', 'OPS-3'],
  );
  assert.is(store.getIssue('OPS-3').comments[0]!.author, 'bob.smith');
  assert.not.ok(fs.readFileSync(file, 'utf8').includes('x'.repeat(100)), 'the refused comment never reached the journal');
});

test('bounds: rows, field size and an unreadable file are refused with a clear message, before any row is tried', () => {
  const refusal = (text: string): string => {
    try {
      readJiraCsv(text);
    } catch (error) {
      if (error instanceof JiraCsvError) return error.message;
      throw error;
    }
    return 'read';
  };
  const tooMany = `Issue key,Summary\n${'OPS-1,x\n'.repeat(IMPORT_LIMITS.rows + 1)}`;
  assert.is(
    refusal(tooMany),
    `the file is not CSV this import can read: more than ${IMPORT_LIMITS.rows + 1} records (the header counts as one)`,
  );
  assert.is(
    refusal(`Issue key,Summary\nOPS-1,${'x'.repeat(IMPORT_LIMITS.fieldChars + 1)}\n`),
    `the file is not CSV this import can read: line 2: a field longer than ${IMPORT_LIMITS.fieldChars} characters`,
  );
  assert.is(refusal('Key,Title\n'), 'the header has no Summary column (the issue title)');
  assert.is(refusal('Summary,Summary\n'), 'the header names the column Summary twice');
  assert.is(refusal(''), 'the file is empty: a header row (Issue key, Summary, ...) comes first');
});

test('a 1,000-row Jira export: every good row imported with its key, its parent linked after it', async () => {
  const store = await open(false);
  const report = await run(store, jiraSampleCsv({ rows: 1000, badEvery: 100 }));
  assert.is(report.rows, 1000);
  assert.is(report.refused.length, 10);
  assert.is(report.imported.length, 990);
  assert.ok(report.imported.every((entry) => entry.from === entry.key));
  assert.equal(report.ignoredColumns, ['Watchers']);
  assert.is(store.getIssue('FIN-1').parent, 'FIN-20');
  // Every third row has a comment in Jira's form (4 of them refused), every sixth a second one, the body alone.
  assert.is(
    report.imported.reduce((sum, entry) => sum + entry.comments, 0),
    333 - 4 + 166,
  );
  assert.equal(
    store.getIssue('FIN-6').comments.map((comment) => [comment.author, comment.body]),
    [
      ['bob', 'Seen on 6; "retry", then ship.'],
      ['assistant', 'Body only: the importing user wrote it when the issue was created.'],
    ],
  );
});

/** The built command, as a user runs it: stdout and stderr apart. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['dist/mcp-tracker.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, MCP_TRACKER_STORE: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('the commands: export writes only data to stdout, import reports on stderr, a dry run leaves the file as it was', async () => {
  const source = newPath();
  (await open(true, source)).close();
  const exported = cli('export', '--data', source);
  assert.is(exported.status, 0, exported.stderr);
  assert.ok(exported.stdout.startsWith('Issue key,Summary,Issue Type,Status,Priority,'));
  assert.is(exported.stderr, '[mcp-tracker] exported 17 issues\n');
  const csvFile = path.join(path.dirname(source), 'issues.csv');
  fs.writeFileSync(csvFile, exported.stdout);

  const target = newPath();
  (await open(false, target)).close();
  const before = fs.readFileSync(target);
  const dry = cli('import', csvFile, '--dry-run', '--data', target);
  assert.is(dry.status, 0, dry.stderr);
  assert.is(dry.stdout, '');
  assert.match(dry.stderr, '17 rows read: 17 would be imported, 0 refused');
  assert.ok(fs.readFileSync(target).equals(before), 'the dry run left the journal as it was');
  const real = cli('import', csvFile, '--data', target);
  assert.match(real.stderr, '17 rows read: 17 imported, 0 refused');

  const json = path.join(path.dirname(source), 'all.json');
  assert.is(cli('export', '--format', 'json', '--out', json, '--data', source).status, 0);
  const again = newPath();
  assert.match(
    cli('import', json, '--data', again).stderr,
    'imported 2 projects, 6 sprints, 17 issues and 3 links (and 5 people)',
  );
  assert.is(cli('export', '--format=json', '--data', again).stdout, fs.readFileSync(json, 'utf8'));
  const refused = cli('import', json, '--data', again);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, 'A JSON export goes into an empty store');
  assert.match(cli('import', '--data', again).stderr, 'import needs the file to read');
  const ephemeral = cli('import', json, '--ephemeral');
  assert.is(ephemeral.status, 2);
  assert.match(ephemeral.stderr, 'import works on --data PATH or --store URL, not on an --ephemeral file');
});

test("an import interrupted and run again ends with exactly the file's issues: rows already there by key are not written twice (issue 30 item 7)", async () => {
  const rows = Array.from({ length: 30 }, (_, i) =>
    row(`ABC-${i + 1}`, `Issue ${i + 1}`, i > 0 ? { Parent: 'ABC-1' } : { 'Issue Type': 'Epic' }),
  );
  const store = await open(false);
  await run(store, csv(HEADER, ...rows.slice(0, 12))); // what the killed run had written
  const again = await run(store, csv(HEADER, ...rows));
  assert.is(again.alreadyPresent.length, 12);
  assert.is(again.imported.length, 18);
  assert.is(again.refused.length, 0);
  const issues = allIssues(store);
  assert.is(issues.length, 30);
  assert.equal(issues.map((issue) => issue.key).sort(), rows.map((r) => r[0]).sort());
  assert.is((await run(store, csv(HEADER, ...rows))).imported.length, 0, 'a third run writes nothing');
  assert.is(allIssues(store).length, 30);
  store.close();
});

test('the import command: an interrupted one is said at the next run; a refused one (unreadable, too big) leaves no new data file (issue 30 items 7, 13)', async () => {
  const directory = path.dirname(newPath());
  const bad = path.join(directory, 'bad.csv');
  fs.writeFileSync(bad, 'Summary,"unclosed\n');
  const target = path.join(directory, 'new.jsonl');
  const refused = cli('import', bad, '--data', target);
  assert.is(refused.status, 1, refused.stderr);
  assert.not.ok(fs.existsSync(target), 'no data file was made');
  const big = path.join(directory, 'big.csv');
  fs.writeFileSync(big, 'x'.repeat(IMPORT_LIMITS.fileBytes + 1));
  assert.is(cli('import', big, '--data', target).status, 1);
  assert.not.ok(fs.existsSync(target), 'no data file was made');

  const good = path.join(directory, 'good.csv');
  fs.writeFileSync(good, csv(HEADER, row('ABC-1', 'One'), row('ABC-2', 'Two')));
  fs.writeFileSync(`${target}.import-pending`, `${good}, started 2026-12-02T09:00:00.000Z, process 1\n`);
  const resumed = cli('import', good, '--data', target);
  assert.is(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, 'an earlier import did not finish');
  assert.not.ok(fs.existsSync(`${target}.import-pending`), 'the marker goes when the import ends');
});

test.run();
