// ORDER BY due, as a client asks it (issue 33): issues by their due date, those without one
// after every date (before them with DESC), ties by key; Jira's duedate is the same field; a
// cursor walks the same order page by page. PostgreSQL answers the same: the SQL fuzz of
// spec-tests/tests-postgres/sql-search.test.ts orders by due against memory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Json, type TrackerSession, trackerSession } from './tracker-session.js';

const call = async (tracker: TrackerSession, name: string, args: Json) =>
  (await tracker.ask('tools/call', { name, arguments: args })).result as Json;

const keys = (answer: Json): string[] => answer.structuredContent.issues.map((issue: Json) => issue.key);

test('search_issues ORDER BY due: dated issues by day, then the undated by key; DESC the reverse; the cursor agrees', async () => {
  const tracker = await trackerSession();
  try {
    for (const [key, due] of [
      ['PROJ-102', '2026-12-24'],
      ['PROJ-101', '2026-12-01'],
      ['PROJ-103', '2026-12-24'],
    ])
      assert.is((await call(tracker, 'update_issue', { key, fields: { due } })).isError, undefined);
    const all = keys(await call(tracker, 'search_issues', { query: 'project = PROJ ORDER BY due', limit: 50 }));
    assert.equal(all.slice(0, 3), ['PROJ-101', 'PROJ-102', 'PROJ-103'], 'by day, a tie by key');
    assert.ok(all.length > 3, 'the undated follow');
    const undated = all.slice(3);
    assert.equal(
      undated,
      [...undated].sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1])),
    );
    const descending = keys(await call(tracker, 'search_issues', { query: 'project = PROJ ORDER BY duedate DESC', limit: 50 }));
    assert.equal(descending.slice(-3), ['PROJ-102', 'PROJ-103', 'PROJ-101'], 'the latest day first, a tie still by key');
    assert.equal(descending.slice(0, undated.length).sort(), [...undated].sort(), 'DESC: the undated first');

    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(tracker, 'search_issues', {
        query: 'project = PROJ ORDER BY due',
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      walked.push(...keys(page));
      cursor = page.structuredContent.next_cursor ?? undefined;
    } while (cursor !== undefined);
    assert.equal(walked, all);
  } finally {
    tracker.close();
  }
});

test.run();
