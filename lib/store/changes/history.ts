// An issue's change history: who changed what, and when, from the records themselves.
//
// Each record that changes an issue adds one entry to that issue's history as it is applied
// (both ends of a link, an epic and its child, every issue a closing sprint carries). The
// entry keeps the record's seq, time, type, author and the one-line description the change
// already has. Creation is not kept as an entry: the issue itself says when and by whom
// (created_at, reporter), so an issue that never changed has no entries. The entries live
// beside the issue (issue-table.ts), so a snapshot keeps them with it. Entries are never
// removed, like the records they come from; an answer shows the most recent
// HISTORY_SHOWN_MAX, newest first, with the total.
import type { Change } from '../state/change.js';
import { domainError } from '../model/errors.js';
import type { HistoryEntry } from '../state/issue-table.js';
import { requireIssue } from '../state/lookup.js';
import type { JournalRecord } from '../model/record-schema.js';
import type { TrackerState } from '../state/state.js';

export interface IssueHistory {
  readonly key: string;
  /** Entries in all, creation included. */
  readonly total: number;
  /** Newest first, at most `limit` of them. */
  readonly entries: readonly HistoryEntry[];
}

export const HISTORY_SHOWN_DEFAULT = 20;
export const HISTORY_SHOWN_MAX = 100;

/** Called for every record applied (apply.ts), after the change is made. */
export function noteHistory(state: TrackerState, record: JournalRecord, change: Change): void {
  if (record.type === 'issue.created' || change.issues.length === 0) return;
  const entry: HistoryEntry = Object.freeze({
    seq: record.seq,
    at: record.at,
    by: authorIn(record) ?? record.by ?? null,
    type: record.type.replace(/^issue\./, ''),
    change: change.description,
  });
  for (const key of change.issues) state.issues.entry(key)?.history.push(entry);
}

/** A comment's or an attachment's author, who may differ from the caller (add_comment's author). */
function authorIn(record: JournalRecord): string | null {
  if (record.type === 'issue.commented') return record.comment.author;
  if (record.type === 'issue.attachment_added') return record.attachment.author;
  return null;
}

/** How many entries to show: 1..HISTORY_SHOWN_MAX, default HISTORY_SHOWN_DEFAULT. */
export function parseHistoryLimit(value: unknown): number {
  if (value === undefined) return HISTORY_SHOWN_DEFAULT;
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > HISTORY_SHOWN_MAX) {
    throw domainError('invalid_argument', `The history limit must be an integer from 1 to ${HISTORY_SHOWN_MAX}.`);
  }
  return value as number;
}

/** The most recent `limit` entries, newest first; the oldest of all is the creation. */
export function issueHistory(state: TrackerState, key: string, limit: number = HISTORY_SHOWN_DEFAULT): IssueHistory {
  const issue = requireIssue(state, key);
  const changes = state.issues.entry(issue.key)?.history ?? [];
  const total = changes.length + 1;
  const shown = Math.max(0, Math.min(limit, HISTORY_SHOWN_MAX, total));
  const newest = changes.slice(Math.max(0, changes.length - shown)).reverse();
  if (newest.length < shown) {
    newest.push({ seq: null, at: issue.created_at, by: issue.reporter, type: 'created', change: `${issue.key} created` });
  }
  return { key: issue.key, total, entries: newest };
}
