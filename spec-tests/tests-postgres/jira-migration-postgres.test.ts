// The Jira migration (lib/tests/jira-migration.test.ts) on PostgreSQL: the same 210-row Jira
// Cloud export imported into a journal and into team mode's store gives the same issues, and
// importing it again, edited, updates the same rows in both, never duplicating one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { importJiraCsv } from '../../lib/store/exchange/import-csv.js';
import { readUserMap } from '../../lib/store/exchange/jira-mapping.js';
import { openStore, type Issue, type TrackerStore } from '../../lib/store/index.js';
import { openPostgresStore } from '../../lib/store/postgres/index.js';
import { UNNAMED, jiraCloudCsv } from '../../lib/tests/jira-cloud-csv.js';
import { dropDatabases, freshStore, postgresTest } from './postgres-test-db.js';

const test = postgresTest('the Jira migration on PostgreSQL');
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'jira-migration-pg-'));
test.after(async () => {
  fs.rmSync(directory, { recursive: true, force: true });
  await dropDatabases();
});

const NOW = new Date('2026-12-02T09:00:00.000Z');
const userMap = readUserMap(`${UNNAMED},dmitri.k\n`);
const run = (store: TrackerStore, text: string) => importJiraCsv(store, text, { dryRun: false, now: () => NOW, userMap });

/** What an import decides about an issue; the times of writing differ between two stores. */
const decided = (issue: Issue) => {
  const { updated_at: _updated, comments, ...fields } = issue;
  return { ...fields, comments: comments.map(({ author, body }) => [author, body]) };
};

test('the same export into a journal and into PostgreSQL: the same issues, the same rows updated on the second run', async () => {
  const journal = await openStore({
    path: path.join(directory, 'pay.jsonl'),
    log: () => {},
    watch: false,
    seed: false,
    now: () => NOW,
  });
  const team = await openPostgresStore({
    url: await freshStore(),
    shown: 'the test database',
    log: () => {},
    watch: false,
    seed: false,
  });
  const edited = new Set([2, 12, 22, 102, 202]);
  for (const store of [journal, team]) {
    const first = await run(store, jiraCloudCsv(210));
    assert.equal([first.imported.length, first.refused.length], [210, 0]);
    const again = await run(store, jiraCloudCsv(210, edited));
    assert.equal([again.imported.length, again.refused.length], [0, 0]);
    assert.equal(
      again.alreadyPresent.filter((entry) => entry.changes.length > 0).map((entry) => entry.key),
      [...edited].map((n) => `PAY-${n}`),
    );
  }
  const issues = (store: TrackerStore) => store.exportSnapshot().issues.map(decided);
  assert.is(issues(team).length, 210);
  assert.equal(issues(team), issues(journal));
  assert.equal(team.exportSnapshot().sprints, journal.exportSnapshot().sprints);
  // The workflow the import made of the file's statuses (import-workflow.ts), the same in both.
  assert.equal(team.getWorkflow('PAY'), journal.getWorkflow('PAY'));
  assert.ok(team.getWorkflow('PAY').statuses.some((status) => status.id === 'code_review'));
  journal.close();
  team.close();
});

test.run();
