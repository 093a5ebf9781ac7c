// The demo tracker written when a data file is first created.
//
// Everything is relative to the moment of creation, so the demo always looks
// alive: Sprint 42 started 9 days ago and ends in 5, issues were touched
// hours ago. Sprint 42 holds 25 story points of which 4 are done (16 %), and
// PROJ-102 is an open P0.
import type { Comment, Issue, LinkType, Project, Sprint } from './schema.js';
import type { Person } from './person.js';
import type { RecordDraft } from './record-schema.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const PROJECTS: readonly Project[] = [
  { key: 'PROJ', name: 'Phoenix Platform', description: 'Core platform: checkout, payments and the public API.', lead: 'alice' },
  { key: 'WEB', name: 'Web Storefront', description: 'The customer-facing web shop.', lead: 'priya' },
];

/** [id, name, state, start in days from now, end in days from now, goal] */
type SprintRow = readonly [string, string, Sprint['state'], number, number, string];
const SPRINTS: readonly SprintRow[] = [
  ['PROJ-S40', 'Sprint 40', 'closed', -37, -24, 'Payments service on the new cluster'],
  ['PROJ-S41', 'Sprint 41', 'closed', -23, -10, 'Guest checkout'],
  ['PROJ-S42', 'Sprint 42', 'active', -9, 5, 'Ship the new checkout flow to 10% of traffic'],
  ['PROJ-S43', 'Sprint 43', 'future', 6, 19, 'Wallets: Apple Pay and Google Pay'],
  ['WEB-S6', 'Sprint 6', 'closed', -17, -4, 'Legal pages refresh'],
  ['WEB-S7', 'Sprint 7', 'active', -3, 11, 'Mobile homepage under 2 s'],
];

/** [key, type, title, status, priority, assignee, points, sprint, labels, created days ago, updated hours ago] */
type IssueRow = readonly [
  string,
  Issue['type'],
  string,
  Issue['status'],
  Issue['priority'],
  string | null,
  number | null,
  string | null,
  readonly string[],
  number,
  number,
];
const ISSUES: readonly IssueRow[] = [
  [
    'PROJ-101',
    'story',
    'Checkout: single-page payment form',
    'in_progress',
    'P1',
    'alice',
    5,
    'PROJ-S42',
    ['checkout', 'frontend'],
    12,
    3,
  ],
  [
    'PROJ-102',
    'bug',
    'Payment webhook retries double-charge customers',
    'in_progress',
    'P0',
    'bob',
    3,
    'PROJ-S42',
    ['payments', 'backend'],
    4,
    20,
  ],
  [
    'PROJ-103',
    'task',
    'Add idempotency keys to /v2/charges',
    'in_review',
    'P1',
    'carol',
    3,
    'PROJ-S42',
    ['payments', 'api'],
    8,
    2,
  ],
  ['PROJ-104', 'story', 'Show saved cards at checkout', 'todo', 'P2', null, 5, 'PROJ-S42', ['checkout'], 10, 70],
  [
    'PROJ-105',
    'bug',
    'Order confirmation email shows the wrong currency',
    'done',
    'P2',
    'dmitri',
    2,
    'PROJ-S42',
    ['email'],
    9,
    30,
  ],
  [
    'PROJ-106',
    'task',
    'Feature flag: roll checkout_v2 out to 10%',
    'todo',
    'P1',
    'alice',
    2,
    'PROJ-S42',
    ['checkout', 'release'],
    9,
    48,
  ],
  [
    'PROJ-107',
    'bug',
    'Cart total off by one cent with percentage coupons',
    'done',
    'P1',
    'bob',
    2,
    'PROJ-S42',
    ['checkout', 'payments'],
    7,
    26,
  ],
  [
    'PROJ-108',
    'task',
    'Load-test checkout at twice the Black Friday peak',
    'todo',
    'P2',
    'carol',
    3,
    'PROJ-S42',
    ['performance'],
    6,
    50,
  ],
  ['PROJ-109', 'epic', 'Checkout v2', 'in_progress', 'P1', 'alice', null, null, ['checkout'], 40, 72],
  ['PROJ-110', 'story', 'Apple Pay support', 'todo', 'P2', null, 8, 'PROJ-S43', ['payments'], 15, 100],
  [
    'PROJ-111',
    'bug',
    'Session expires during the 3-D Secure challenge',
    'todo',
    'P1',
    null,
    5,
    null,
    ['payments', 'auth'],
    3,
    60,
  ],
  ['PROJ-112', 'task', 'Remove the legacy /v1/checkout endpoint', 'todo', 'P3', 'dmitri', 1, null, ['api', 'tech-debt'], 30, 300],
  ['PROJ-113', 'task', 'Move payment logs to structured JSON', 'done', 'P3', 'bob', 2, 'PROJ-S41', ['observability'], 25, 250],
  ['PROJ-114', 'story', 'Guest checkout without an account', 'done', 'P1', 'carol', 8, 'PROJ-S41', ['checkout'], 28, 240],
  [
    'WEB-1',
    'bug',
    'Homepage hero image loads slowly on mobile',
    'in_progress',
    'P1',
    'priya',
    3,
    'WEB-S7',
    ['performance', 'frontend'],
    5,
    5,
  ],
  ['WEB-2', 'task', 'Update footer links to the new legal pages', 'done', 'P3', 'bob', 1, 'WEB-S6', ['content'], 16, 110],
  ['WEB-3', 'story', 'Dark mode', 'todo', 'P2', null, 8, null, ['frontend'], 20, 400],
];

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'PROJ-101':
    'Replace the three-step checkout with one page: address, shipping and payment together. Designs are linked in the epic.',
  'PROJ-102':
    'When our webhook endpoint answers 502, the provider retries and we create a second charge. Seen 14 times this week. Customers are refunded by hand.',
  'PROJ-103':
    'Accept an Idempotency-Key header on POST /v2/charges and return the original response for repeats within 24 hours.',
  'PROJ-111': 'Users who take longer than 5 minutes in the bank challenge come back to an expired session and lose their cart.',
};

/** [issue, author, body, hours ago] */
const COMMENTS: ReadonlyArray<readonly [string, string, string, number]> = [
  ['PROJ-101', 'alice', 'Design review done: going with the one-column layout.', 30],
  ['PROJ-102', 'carol', 'Reproduced on staging: the retry after a 502 has no idempotency key.', 44],
  ['PROJ-102', 'bob', 'The fix depends on PROJ-103; keeping this open until that ships.', 20],
];

const REPORTERS = ['alice', 'carol', 'dmitri', 'priya'];

/**
 * PROJ-103 blocks the P0 PROJ-102 (its comment says the fix depends on it), so the ready view
 * leaves PROJ-102 out until PROJ-103 is done; the feature flag waits for the payment form.
 */
const LINKS: ReadonlyArray<readonly [string, LinkType, string]> = [
  ['PROJ-103', 'blocks', 'PROJ-102'],
  ['PROJ-101', 'blocks', 'PROJ-106'],
  ['PROJ-108', 'relates_to', 'PROJ-106'],
];

/** The stories and tasks of the epic PROJ-109, Checkout v2. */
const EPIC_CHILDREN: readonly string[] = ['PROJ-101', 'PROJ-104', 'PROJ-106', 'PROJ-108'];

/** The people directory: everyone the demo's issues name, as a team would know them. */
const PEOPLE: readonly Person[] = [
  { handle: 'alice', name: 'Alice Smith', email: 'alice.smith@example.com', aliases: ['5b10a2844c20165700ede21g'] },
  { handle: 'bob', name: 'Bob Jones', email: 'bob.jones@example.com', aliases: ['5b10ac8d82e05b22cc7d4ef5'] },
  { handle: 'carol', name: 'Carol Diaz', email: 'carol.diaz@example.com', aliases: [] },
  { handle: 'dmitri', name: 'Dmitri Kuznetsov', email: 'dmitri.k@example.com', aliases: [] },
  { handle: 'priya', name: 'Priya Patel', email: 'priya.patel@example.com', aliases: [] },
];

export function demoRecords(now: Date): RecordDraft[] {
  return [
    ...PROJECTS.map((project): RecordDraft => ({ type: 'project.created', project })),
    ...SPRINTS.map((row): RecordDraft => ({ type: 'sprint.created', sprint: demoSprint(row, now) })),
    ...ISSUES.map((row, index): RecordDraft => ({ type: 'issue.created', issue: demoIssue(row, index, now) })),
    ...LINKS.map(([key, link, to]): RecordDraft => ({ type: 'issue.linked', key, link, to })),
    ...EPIC_CHILDREN.map((key): RecordDraft => ({ type: 'issue.parent_changed', key, from: null, to: 'PROJ-109' })),
    ...PEOPLE.map((person): RecordDraft => ({ type: 'person.saved', person })),
  ];
}

function demoSprint([id, name, state, startDays, endDays, goal]: SprintRow, now: Date): Sprint {
  const project = id.slice(0, id.indexOf('-'));
  return { id, name, project, state, start_date: dayOffset(now, startDays), end_date: dayOffset(now, endDays), goal };
}

function demoIssue(row: IssueRow, index: number, now: Date): Issue {
  const [key, type, title, status, priority, assignee, points, sprint, labels, createdDaysAgo, updatedHoursAgo] = row;
  const comments: Comment[] = COMMENTS.filter(([issue]) => issue === key).map(([, author, body, hoursAgo], i) => ({
    id: i + 1,
    author,
    body,
    created_at: timeAgo(now, hoursAgo * HOUR_MS),
  }));
  return {
    key,
    project: key.slice(0, key.indexOf('-')),
    title,
    description: DESCRIPTIONS[key] ?? '',
    type,
    status,
    priority,
    assignee,
    reporter: REPORTERS[index % REPORTERS.length] ?? 'alice',
    story_points: points,
    sprint,
    labels,
    comments,
    created_at: timeAgo(now, createdDaysAgo * DAY_MS),
    updated_at: timeAgo(now, updatedHoursAgo * HOUR_MS),
  };
}

/** The UTC calendar day `days` away from now: "2025-06-01". */
function dayOffset(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

function timeAgo(now: Date, ms: number): string {
  return new Date(now.getTime() - ms).toISOString();
}
