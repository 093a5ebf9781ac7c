// What the ready view needs beside the issues read table (issue-table.ts), so it is answered
// by SQL too (sql-search.ts): each sprint's project and state (mcp_tracker_sprints), and who
// blocks whom (mcp_tracker_blocks: one row per `A blocks B`, as apply.ts reads it: B
// is_blocked_by A).
//
// Written in the records' transaction, as the issues table is, so the three never disagree
// with the log. The meaning is ready.ts's: an issue is ready when it is in the active sprint of
// its project (the newest one, should there ever be two), open and not blocked, not an epic,
// and every issue blocking it is done.
import type pg from 'pg';
import type { JournalRecord } from '../model/record-schema.js';
import { sprintNumber, type TrackerState } from '../state/state.js';

type Client = pg.PoolClient | pg.Client;

export const READY_TABLES_SQL = [
  `CREATE TABLE mcp_tracker_sprints (
     id text PRIMARY KEY,
     project text COLLATE "C" NOT NULL,
     number integer NOT NULL,
     state text NOT NULL
   )`,
  "CREATE INDEX mcp_tracker_sprints_active ON mcp_tracker_sprints (project) WHERE state = 'active'",
  `CREATE TABLE mcp_tracker_blocks (
     blocked text NOT NULL,
     blocker text NOT NULL,
     PRIMARY KEY (blocked, blocker)
   )`,
];

/** Changes the tables as one record changes the sprints and the blocking links; other records touch nothing here. */
export async function applyToReadyTables(client: Client, record: JournalRecord): Promise<void> {
  switch (record.type) {
    case 'sprint.created':
      await insertSprints(client, [record.sprint]);
      return;
    case 'sprint.started':
      await client.query("UPDATE mcp_tracker_sprints SET state = 'active' WHERE id = $1", [record.id]);
      return;
    case 'sprint.closed':
      await client.query("UPDATE mcp_tracker_sprints SET state = 'closed' WHERE id = $1", [record.id]);
      return;
    case 'issue.linked':
      if (record.link === 'blocks') {
        await client.query('INSERT INTO mcp_tracker_blocks (blocked, blocker) VALUES ($1, $2)', [record.to, record.key]);
      }
      return;
    case 'issue.unlinked':
      if (record.link === 'blocks') {
        await client.query('DELETE FROM mcp_tracker_blocks WHERE blocked = $1 AND blocker = $2', [record.to, record.key]);
      }
      return;
    default:
      return;
  }
}

async function insertSprints(client: Client, sprints: readonly { id: string; project: string; state: string }[]): Promise<void> {
  if (sprints.length === 0) return;
  await client.query(
    `INSERT INTO mcp_tracker_sprints (id, project, number, state)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[])`,
    [
      sprints.map((s) => s.id),
      sprints.map((s) => s.project),
      sprints.map((s) => sprintNumber(s.id)),
      sprints.map((s) => s.state),
    ],
  );
}

/** The tables' rows for a state built from the records already there (the migration's backfill). */
export async function insertReadyRows(client: Client, state: TrackerState): Promise<void> {
  await insertSprints(client, [...state.sprints.values()]);
  const blocks: [string, string][] = [];
  for (const [key, links] of state.links) {
    for (const link of links) if (link.type === 'is_blocked_by') blocks.push([key, link.key]);
  }
  if (blocks.length === 0) return;
  await client.query('INSERT INTO mcp_tracker_blocks (blocked, blocker) SELECT * FROM unnest($1::text[], $2::text[])', [
    blocks.map(([blocked]) => blocked),
    blocks.map(([, blocker]) => blocker),
  ]);
}

/**
 * The ready view as a condition on a row of mcp_tracker_issues (named `issue`): `statuses` are
 * the open statuses but blocked, `done` the done ones (every workflow's, state/workflows.ts),
 * each a parameter placeholder's value given by the caller.
 */
export function readySql(statuses: string, done: string): string {
  return `(issue.type <> 'epic' AND issue.status = ANY(${statuses}::text[])
    AND issue.sprint = (SELECT s.id FROM mcp_tracker_sprints s WHERE s.project = issue.project AND s.state = 'active'
                        ORDER BY s.number DESC LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM mcp_tracker_blocks b JOIN mcp_tracker_issues blocker ON blocker.key = b.blocker
                    WHERE b.blocked = issue.key AND NOT (blocker.status = ANY(${done}::text[]))))`;
}
