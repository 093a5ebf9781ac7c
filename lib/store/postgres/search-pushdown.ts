// The PostgreSQL store's answer to search_issues (store.ts SearchPushdown): the search
// resolved against the replica's state, the matching keys and the total from SQL
// (sql-search.ts), the issues themselves from the replica.
//
// The SQL answer saw the records up to some revision; the replica may not have applied them
// all yet (the change feed brings them a moment later). The page waits until it has, so every
// key found is an issue it holds; an issue changed since may be shown as it is now, as a scan
// of memory shows each issue as it is when reached.
//
// The ready view is answered by SQL too, from the sprints and blocking links kept beside the
// issues (ready-tables.ts). Left to the replica's memory (the pushdown answers null): any
// search while the database does not answer, or while this instance lags behind it by more
// than the timeout: reads are answered from memory when the database is away (docs/team-mode.md), and search stays a read.
import type { Logger } from '../model/log.js';
import { requireIssue } from '../state/lookup.js';
import { openStatuses, statusesIn } from '../state/workflows.js';
import { resolveSearch } from '../queries/search-request.js';
import { encodeCursor, positionOf } from '../queries/search-cursor.js';
import type { StoreBackend } from '../backend/record-log.js';
import type { SearchPushdown } from '../store-reads.js';
import type { PgLog } from './pg-log.js';
import type { SqlPage } from './sql-search.js';

/** How often the page looks whether the replica has caught up. */
const CATCH_UP_POLL_MS = 5;

export function searchBySql(log: PgLog, backend: StoreBackend, timeoutMs: number, logger: Logger): SearchPushdown {
  return async (state, query, context) => {
    const { page, where, orderBy, ready } = resolveSearch(state, query, context);
    const after = page.after === undefined ? undefined : positionOf(orderBy, page.after);
    let answer: SqlPage;
    try {
      const statuses = ready ? { open: openStatuses(state), done: statusesIn(state, 'done') } : undefined;
      answer = await log.searchPage({ where, orderBy, ready: statuses, limit: page.limit, offset: page.offset, after });
    } catch (error) {
      logger('warn', `${log.name}: search answered from memory, the database did not (${(error as Error).message})`);
      return null;
    }
    if (!(await caughtUp(backend, answer.revision, timeoutMs))) {
      logger('warn', `${log.name}: search answered from memory, this instance has not read revision ${answer.revision} yet`);
      return null;
    }
    const now = backend.state();
    const items = answer.keys.map((key) => requireIssue(now, key));
    const more = answer.next_position !== null;
    const next_cursor = answer.next_position === null ? null : encodeCursor(page.identity, answer.next_position);
    const next_offset = more && page.after === undefined ? page.offset + items.length : null;
    return { items, total: answer.total, offset: page.offset, limit: page.limit, next_offset, next_cursor };
  };
}

/** Whether the replica has applied `revision`, waiting for it at most `timeoutMs`. */
async function caughtUp(backend: StoreBackend, revision: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (backend.state().lastSeq < revision) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
  }
  return true;
}
