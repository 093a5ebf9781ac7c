// The queries people moving off Jira type every day, as they type them, over the demo tracker
// with a week of work added (a refund bug, a duplicate closed, a won't-do, a comment): each
// answers with the count and the issues it should. Run alone, the test prints the list with
// the counts (`node node_modules/uvu/bin.js -r tsx lib/tests 'jql-jira'`).
//
// Then Jira's words we do not have: each is answered with what to write here, never a bare
// "Unknown field", and a wildcard is never a silent empty page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError, openStore, type TrackerStore } from '../store/index.js';
import { dateSpan } from '../store/queries/jql/dates.js';
import { parseQuery } from '../store/queries/jql/parser.js';

/** A Wednesday, noon UTC: the week began on Monday 2025-06-16. */
const NOW = new Date('2025-06-18T12:00:00.000Z');
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-jql-jira-'));
let store: TrackerStore;

test.before(async () => {
  store = await openStore({
    path: path.join(directory, 'tracker.jsonl'),
    log: () => {},
    watch: false,
    now: () => NOW,
    user: 'alice',
  });
  const refund = await store.createIssue({
    project: 'PROJ',
    title: 'Refund button does nothing on Safari',
    description: 'Customers tap Refund on the order page and nothing happens.',
    type: 'Bug',
    priority: 'High',
    assignee: 'bob',
    sprint: 'PROJ-S42',
    labels: ['payments'],
  });
  const double = await store.createIssue({
    project: 'PROJ',
    title: 'Refunds posted twice to the ledger',
    type: 'bug',
    priority: 'P0',
  });
  await store.linkIssues(double.issue.key, 'duplicates', 'PROJ-102');
  for (const status of ['in_progress', 'in_review']) await store.updateStatus(double.issue.key, status);
  await store.updateStatus(double.issue.key, 'done', { resolution: 'duplicate' });
  const legacy = await store.createIssue({
    project: 'PROJ',
    title: 'Keep the IE11 checkout alive',
    type: 'task',
    priority: 'Low',
  });
  for (const status of ['in_progress', 'in_review']) await store.updateStatus(legacy.issue.key, status);
  await store.updateStatus(legacy.issue.key, 'done', { resolution: "Won't Do" });
  await store.addComment('WEB-1', { body: 'A refund link in the hero would help too.', author: 'priya' });
  assert.equal([refund.issue.key, double.issue.key, legacy.issue.key], ['PROJ-115', 'PROJ-116', 'PROJ-117']);
});

test.after(() => {
  store.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

/** [the query as a user types it, the issues it finds] */
const QUERIES: readonly (readonly [string, readonly string[]])[] = [
  ['project = PROJ AND status = "In Progress"', ['PROJ-101', 'PROJ-102', 'PROJ-109']],
  ['summary ~ refund', ['PROJ-115', 'PROJ-116']],
  ['summary ~ "refund*"', ['PROJ-115', 'PROJ-116']],
  ['text ~ "refund*"', ['PROJ-102', 'PROJ-115', 'PROJ-116', 'WEB-1']],
  ['description ~ webhook', ['PROJ-102']],
  ['comment ~ staging', ['PROJ-102']],
  ['summary !~ checkout AND project = WEB', ['WEB-1', 'WEB-2', 'WEB-3']],
  ['issuetype = Bug AND priority in (Highest, High)', ['PROJ-102', 'PROJ-107', 'PROJ-111', 'PROJ-115', 'PROJ-116', 'WEB-1']],
  ['issuetype = Story AND statusCategory != Done', ['PROJ-101', 'PROJ-104', 'PROJ-110', 'WEB-3']],
  ['key in (PROJ-101, PROJ-102, WEB-1)', ['PROJ-101', 'PROJ-102', 'WEB-1']],
  ['issue = proj-102', ['PROJ-102']],
  ['key > PROJ-113 ORDER BY key', ['PROJ-114', 'PROJ-115', 'PROJ-116', 'PROJ-117']],
  ['parent = PROJ-109', ['PROJ-101', 'PROJ-104', 'PROJ-106', 'PROJ-108']],
  [
    'parent is EMPTY AND issuetype != Epic AND project = PROJ',
    [
      'PROJ-102',
      'PROJ-103',
      'PROJ-105',
      'PROJ-107',
      'PROJ-110',
      'PROJ-111',
      'PROJ-112',
      'PROJ-113',
      'PROJ-114',
      'PROJ-115',
      'PROJ-116',
      'PROJ-117',
    ],
  ],
  ['resolution = Unresolved AND assignee = currentUser() ORDER BY priority DESC', ['PROJ-101', 'PROJ-106', 'PROJ-109']],
  ['resolution is EMPTY AND assignee is EMPTY', ['PROJ-104', 'PROJ-110', 'PROJ-111', 'WEB-3']],
  ['resolution = Duplicate', ['PROJ-116']],
  ['resolution in ("Won\'t Do", Duplicate)', ['PROJ-116', 'PROJ-117']],
  ['resolution != Unresolved AND project = PROJ', ['PROJ-105', 'PROJ-107', 'PROJ-113', 'PROJ-114', 'PROJ-116', 'PROJ-117']],
  ['statusCategory = "To Do" AND project = WEB', ['WEB-3']],
  ['statusCategory = "In Progress"', ['PROJ-101', 'PROJ-102', 'PROJ-103', 'PROJ-109', 'WEB-1']],
  [
    'updated >= startOfWeek()',
    [
      'PROJ-101',
      'PROJ-102',
      'PROJ-103',
      'PROJ-105',
      'PROJ-106',
      'PROJ-107',
      'PROJ-108',
      'PROJ-111',
      'PROJ-115',
      'PROJ-116',
      'PROJ-117',
      'WEB-1',
    ],
  ],
  ['created >= startOfMonth(-1) AND created < startOfMonth()', ['PROJ-109', 'PROJ-112', 'PROJ-113', 'PROJ-114', 'WEB-3']],
  ['updated <= endOfDay(-7)', ['PROJ-112', 'PROJ-113', 'PROJ-114', 'WEB-3']],
  [
    'priority <= P1 AND statusCategory != Done',
    ['PROJ-101', 'PROJ-102', 'PROJ-103', 'PROJ-106', 'PROJ-109', 'PROJ-111', 'PROJ-115', 'WEB-1'],
  ],
  [
    'priority >= High AND resolution = Unresolved',
    ['PROJ-101', 'PROJ-102', 'PROJ-103', 'PROJ-106', 'PROJ-109', 'PROJ-111', 'PROJ-115', 'WEB-1'],
  ],
  ['issue in linkedIssues(PROJ-102)', ['PROJ-103', 'PROJ-116']],
  ['issue in linkedIssues(PROJ-102, "is blocked by")', ['PROJ-103']],
  ['issue in blockedIssues()', ['PROJ-102', 'PROJ-106']],
  ['issue in blockingIssues()', ['PROJ-101', 'PROJ-103']],
  ['sprint in futureSprints()', ['PROJ-110']],
  ['sprint in closedSprints() AND status = Done', ['PROJ-113', 'PROJ-114', 'WEB-2']],
  [
    'sprint = "Sprint 42" AND status != Done',
    ['PROJ-101', 'PROJ-102', 'PROJ-103', 'PROJ-104', 'PROJ-106', 'PROJ-108', 'PROJ-115'],
  ],
  ['labels = checkout AND type = bug ORDER BY created DESC', ['PROJ-107']],
];

test('the queries people type answer with the issues they ask for', () => {
  const lines: string[] = [];
  for (const [query, expected] of QUERIES) {
    const answer = store.searchIssues({ query, limit: 100 });
    const keys = answer.items.map((issue) => issue.key);
    lines.push(`${String(answer.total).padStart(3)}  ${query}  → ${keys.join(', ')}`);
    assert.equal(
      query.includes('ORDER BY') ? keys : [...keys].sort(),
      query.includes('ORDER BY') ? expected : [...expected].sort(),
      query,
    );
    assert.is(answer.total, expected.length, query);
  }
  // The list with its counts, for a reader who wants to see it: JQL_COUNTS=1.
  if (process.env.JQL_COUNTS) process.stderr.write(`\n${lines.join('\n')}\n`);
});

/** The message of the error a query gives. */
function failure(query: string): string {
  try {
    store.searchIssues({ query, limit: 1 });
  } catch (error) {
    assert.ok(isDomainError(error), `expected a DomainError, got ${String(error)}`);
    return error.message;
  }
  assert.unreachable(`no error: ${query} succeeded`);
  return '';
}

const MESSAGES: readonly (readonly [string, string])[] = [
  ['fixVersion = "2.1"', "Unknown value '2.1' of fixVersion at column 14. No project defines any."],
  ['component = backend', "Unknown value 'backend' of component at column 13. No project defines any."],
  ['affectedVersion = "2.1"', 'Affected versions are not kept by this tracker: a label (labels = v2-1) can stand in.'],
  ['"Epic Link" = PROJ-109', 'The epic is the parent here: parent = PROJ-109.'],
  ['cf[10016] > 3', 'Custom fields are named here, in quotes: "Story Type" = Research.'],
  ['"Team Size" > 3', 'Unknown field "Team Size" at column 1. No project defines custom fields.'],
  ['duedate < soon', "'soon' is not a date at column 11."],
  ['status WAS "In Progress"', "WAS searches a field's history, which queries do not at column 8."],
  ['project = PROJ ORDER BY Rank', 'Rank is not kept by this tracker: ORDER BY priority, key.'],
  ['summary ~ "re*und"', "'re*und' has a * inside it, which is not supported."],
  ['text ~ "*"', "'*' alone matches every issue; leave it out at column 8."],
  ['summary = refund', "summary takes only '~' or '!~' at column 1. Write summary ~ \"words\"."],
  ['status > todo', "status takes =, !=, IN, NOT IN or IS EMPTY, not '>' at column 1."],
  ['priority > urgent', "Unknown priority 'urgent' at column 12."],
  ['key = PROJ-999', "Unknown issue 'PROJ-999' at column 7. Its project's issues run from PROJ-101 to PROJ-117."],
  ['issue in linkedIssues(PROJ-102, clones)', "Unknown link type 'clones' at column 33."],
  ['issue in linkedIssues()', 'linkedIssues() takes 1 to 2 arguments, not 0 at column 10.'],
  ['created > startOfWeek(soon)', "'soon' is not a time to add at column 23."],
  ['statusCategory = Blocked', 'Unknown status category \'Blocked\' at column 18. Use one of: "To Do", "In Progress", Done.'],
  ['sprint = startOfWeek()', 'startOfWeek() is a date: use it with created or updated at column 10.'],
  ['issue in openSprints()', 'openSprints() is a list of sprints: use it with sprint IN at column 10.'],
  ['assignee in blockedIssues()', 'blockedIssues() is a list of issues: use it with key IN (or issue IN) at column 13.'],
  [
    'assignee IN membersOf("payments-team")',
    'Groups are not kept by this tracker: assignee IN (alice, bob). Functions: currentUser(),',
  ],
  [
    'resolution = Someday',
    "Unknown resolution 'Someday' at column 14. Use one of: done, wont_do, duplicate, cannot_reproduce, Unresolved.",
  ],
];

test("Jira's words we do not have, and what cannot be asked, are answered with what to write instead", () => {
  for (const [query, message] of MESSAGES) assert.ok(failure(query).includes(message), `${query}: ${failure(query)}`);
  // Never "Unknown field" alone: every Jira field we lack says what stands in for it.
  assert.match(
    failure('affectedVersion = "2.1"'),
    /^Unknown field 'affectedVersion' at column 1\. Affected versions .* Fields: project, /,
  );
});

test('Jira names of values are ours under another name; a wildcard finds what the word finds', () => {
  const total = (query: string) => store.searchIssues({ query, limit: 1 }).total;
  assert.is(total('resolution = Fixed'), total('resolution = done'));
  assert.is(total('resolution = "Won\'t Fix"'), total('resolution = wont_do'));
  assert.is(total('issuetype = "Sub-task"'), total('type = task'));
  assert.is(total('status = "In Review" OR status = "in-review"'), total('status = in_review'));
  assert.is(total('priority = Highest'), total('priority = P0'));
  assert.is(total('statusCategory = "to do"'), total('status IN (todo, reopened)'));
  assert.is(total('statusCategory = Done'), total('resolution IS NOT EMPTY'));
  assert.is(total('text ~ "*refund*"'), total('text ~ refund'));
  // The text argument of search_issues takes the same wildcard.
  assert.equal(
    store.searchIssues({ text: 'refund*', limit: 10 }).items.map((i) => i.key),
    ['PROJ-102', 'PROJ-115', 'PROJ-116', 'WEB-1'],
  );
});

test("dates: times from now in Jira's units; date functions: the first and last millisecond of the period, moved by their argument (UTC, weeks from Monday)", () => {
  const dates = [
    ['startOfDay()', '2025-06-18T00:00:00.000Z'],
    ['endOfDay()', '2025-06-18T23:59:59.999Z'],
    ['startOfWeek()', '2025-06-16T00:00:00.000Z'],
    ['endOfWeek()', '2025-06-22T23:59:59.999Z'],
    ['startOfWeek(-1)', '2025-06-09T00:00:00.000Z'],
    ['startOfMonth()', '2025-06-01T00:00:00.000Z'],
    ['endOfMonth(-1)', '2025-05-31T23:59:59.999Z'],
    ['startOfMonth("+14d")', '2025-06-15T00:00:00.000Z'],
    ['startOfYear()', '2025-01-01T00:00:00.000Z'],
    ['endOfYear(+1)', '2026-12-31T23:59:59.999Z'],
    ['startOfDay(-2h)', '2025-06-17T22:00:00.000Z'],
    ['now()', '2025-06-18T12:00:00.000Z'],
    ['-30m', '2025-06-18T11:30:00.000Z'],
    ['-2D', '2025-06-16T12:00:00.000Z'],
    ['-1M', '2025-05-18T12:00:00.000Z'],
    ['+1y', '2026-06-18T12:00:00.000Z'],
  ];
  for (const [call, instant] of dates) {
    const clause = parseQuery(`created = ${call}`).where;
    assert.ok(clause?.kind === 'compare');
    assert.is(dateSpan(clause.value, NOW).from, instant, call);
  }
});

// Last: it adds a sprint the queries above do not expect.
test("a sprint's name names every project's sprint of that name", async () => {
  await store.importSprint({ project: 'WEB', name: 'Sprint 42', start_date: '2025-06-23', end_date: '2025-07-04' });
  await store.moveToSprint('WEB-3', 'WEB-S8');
  const keys = (query: string) => store.searchIssues({ query, limit: 100 }).items.map((issue) => issue.key);
  assert.equal(keys('sprint = "sprint 42" AND project = WEB'), ['WEB-3']);
  assert.equal(keys('sprint = "Sprint 42"'), [...keys('sprint = PROJ-S42'), 'WEB-3']);
  assert.equal(keys('sprint IN futureSprints()'), ['PROJ-110', 'WEB-3']);
});

test.run();
