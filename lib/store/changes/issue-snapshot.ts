// An issue as the state keeps it: a frozen snapshot, replaced on every change, never mutated,
// whose comments are shared with the issue's other snapshots instead of copied into each. What
// apply.ts makes on every change to an issue, and journal-snapshot.ts when it reads one back.
import type { Comment, Issue, IssueFieldValues } from '../model/schema.js';
import type { HistoryEntry, IssueEntry } from '../state/issue-table.js';

/** An issue without its comments: what a change to an issue replaces. */
export type IssueFields = Omit<Issue, 'comments'>;

/**
 * A frozen issue whose comments are the first `log.length` entries of `log`, as it is now.
 *
 * Copying the comments into each new snapshot would make every comment cost as much as all
 * before it, and opening a file quadratic in the comments of one issue. The log only ever grows, so
 * a snapshot that remembers how many comments it had sees the same ones forever, while the
 * log is shared by all the issue's snapshots. The array is made on the first read of
 * `comments` (get_issue, the issue's resource, a search) and kept.
 *
 * `comments` is an own enumerable getter, so JSON.stringify, spreading and Object.keys see it
 * like any other field, in its place. The getter is one shared function reading a hidden
 * property: a getter written in an object literal is a new function per object, which gives
 * every snapshot its own hidden class and makes reading any field slow (megamorphic). The
 * trap left: spreading a whole issue copies its comments, so replaceIssue copies fieldsOf.
 */
export function issueSnapshot(fields: IssueFields, log: readonly Comment[]): Issue {
  const issue = {
    key: fields.key,
    project: fields.project,
    title: fields.title,
    description: fields.description,
    type: fields.type,
    status: fields.status,
    priority: fields.priority,
    assignee: fields.assignee,
    reporter: fields.reporter,
    story_points: fields.story_points,
    sprint: fields.sprint,
    labels: fields.labels,
    resolution: fields.resolution ?? null,
    parent: fields.parent ?? null,
  };
  // Absent when the issue has none: most issues never do, and their JSON stays as it was.
  if (fields.fields !== undefined) Object.assign(issue, { fields: frozenFields(fields.fields) });
  Object.defineProperty(issue, 'comments', COMMENTS_PROPERTY);
  Object.defineProperty(issue, SHARE, { value: { log, count: log.length } satisfies CommentShare });
  return Object.freeze(Object.assign(issue, { created_at: fields.created_at, updated_at: fields.updated_at })) as Issue;
}

/** An issue's fields as a record or a snapshot file gave them, frozen with their lists. */
function frozenFields(fields: IssueFieldValues): IssueFieldValues {
  if (Object.isFrozen(fields)) return fields;
  for (const value of Object.values(fields)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(fields);
}

/** A snapshot's share of its issue's comment log, and the array made from it once read. */
interface CommentShare {
  readonly log: readonly Comment[];
  readonly count: number;
  array?: readonly Comment[];
}

const SHARE = Symbol('comment share');

const COMMENTS_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  get(this: { readonly [SHARE]: CommentShare }): readonly Comment[] {
    const share = this[SHARE];
    return (share.array ??= Object.freeze(share.log.slice(0, share.count)));
  },
};

/** Only the known fields, as zod would strip extras; never `comments` (see issueSnapshot). */
export function fieldsOf(issue: Issue): IssueFields {
  return {
    key: issue.key,
    project: issue.project,
    title: issue.title,
    description: issue.description,
    type: issue.type,
    status: issue.status,
    priority: issue.priority,
    assignee: issue.assignee,
    reporter: issue.reporter,
    story_points: issue.story_points,
    sprint: issue.sprint,
    labels: issue.labels,
    resolution: issue.resolution ?? null,
    parent: issue.parent ?? null,
    ...(issue.fields === undefined ? {} : { fields: issue.fields }),
    created_at: issue.created_at,
    updated_at: issue.updated_at,
  };
}

/**
 * An issue read back from a snapshot (journal/journal-snapshot.ts), frozen as its records made it:
 * `saved` is the issue as JSON.stringify wrote it, comments included.
 */
export function restoreIssue(saved: Issue, history: readonly HistoryEntry[]): IssueEntry {
  const comments = saved.comments.map(freezeComment);
  const issue = issueSnapshot({ ...fieldsOf(saved), labels: Object.freeze([...saved.labels]) }, comments);
  return { issue, comments, history: history.map((entry) => Object.freeze({ ...entry })) };
}

export function freezeComment(input: Comment): Comment {
  return Object.freeze({ id: input.id, author: input.author, body: input.body, created_at: input.created_at });
}
