// What the store offers (TrackerStore) and what its calls return: the contract store.ts keeps,
// apart from how it keeps it, so a reader (and index.ts) sees the whole surface in one place.
import type { AttachmentInfo, AttachmentInput } from './domain/attachments.js';
import type { Burndown } from './changes/burndown.js';
import type { IssueHistory } from './changes/history.js';
import type { CreateIssueInput } from './domain/commands.js';
import type { Completion } from './domain/completions.js';
import type { ImportIssueInput, ImportProjectInput, ImportSprintInput } from './domain/import-commands.js';
import type { IssueLinks } from './domain/links.js';
import type { PeopleCommands, PeopleReads } from './domain/people.js';
import type { SprintCommands } from './domain/sprints.js';
import type { ProjectStats, SprintStats } from './domain/stats.js';
import type { SprintReport, Velocity } from './domain/sprint-report.js';
import type { UpdateIssueInput } from './domain/update.js';
import type { Logger } from './model/log.js';
import type { Attachment, Comment, Issue, Project, ProjectFields, Sprint, SprintState, Status } from './model/schema.js';
import type { Workflow } from './model/workflow.js';
import type { ListIssuesQuery, Page, SearchIssuesQuery } from './queries/search-request.js';
import type { TrackerSnapshot } from './queries/snapshot.js';
import type { Change } from './state/change.js';
import type { IssueLink } from './state/state.js';

export interface OpenStoreOptions {
  /** Absolute path of the data file (see resolveDataPath). Created with demo data if missing. */
  readonly path: string;
  /** Where diagnostics go (never stdout). */
  readonly log: Logger;
  /** The clock; tests pass a fixed one. Default: () => new Date(). */
  readonly now?: () => Date;
  /** Reporter / comment author when the caller names none. Default: the user, else 'assistant'. */
  readonly actor?: string;
  /** Who is using the tracker (--user, MCP_TRACKER_USER): what currentUser() means in a query. Default: nobody. */
  readonly user?: string;
  /** How long a mutation waits for another process's lock. Default: 5000 ms. */
  readonly lockTimeoutMs?: number;
  /** A lock held longer than this is presumed abandoned. Default: 30000 ms. */
  readonly staleLockMs?: number;
  /** Watch the file for other processes' changes. Default: true. */
  readonly watch?: boolean;
  /** Polling interval of the watch fallback. Default: 250 ms. */
  readonly pollIntervalMs?: number;
  /** A mutation that would take the data file past this many bytes is refused. Default: LIMITS.maxJournalBytes (512 MiB). */
  readonly maxFileBytes?: number;
  /** A missing data file is created with the demo data. Default: true; import starts from an empty one. */
  readonly seed?: boolean;
}

/** The result of a mutation on one issue. */
export interface IssueMutation {
  /** The issue after the mutation (unchanged if the request changed nothing). */
  readonly issue: Issue;
  /** What changed. Empty key lists and a "nothing changed" description for a no-op. */
  readonly change: Change;
}

/** The result of addComment: the comment as stored, beside the issue it went to. */
export interface CommentMutation extends IssueMutation {
  readonly comment: Comment;
}

/** The result of addAttachment: what was added (without its bytes), beside the issue. */
export interface AttachmentMutation extends IssueMutation {
  readonly attachment: AttachmentInfo;
  /** How many attachments the issue has now. */
  readonly count: number;
}

/** One attachment with its bytes, as base64. */
export interface AttachmentFile extends AttachmentInfo {
  readonly content: string;
}

export interface ChangeEvent {
  /** 'local': this store's mutation; 'external': another process (or store) appended. */
  readonly source: 'local' | 'external';
  readonly changes: readonly Change[];
  /** Union over `changes`. */
  readonly issues: readonly string[];
  readonly sprints: readonly string[];
  readonly projects: readonly string[];
  readonly issueSetChanged: boolean;
}

export type ChangeListener = (event: ChangeEvent) => void;

export type BulkOutcome =
  | { readonly key: string; readonly ok: true; readonly changed: boolean; readonly description: string }
  | { readonly key: string; readonly ok: false; readonly error: string };

export interface BulkResult {
  /** One outcome per key attempted, in the order given. */
  readonly results: readonly BulkOutcome[];
  readonly changed: number;
  readonly failed: number;
  /** Keys not attempted because the signal aborted. */
  readonly not_attempted: readonly string[];
  readonly cancelled: boolean;
}

export interface BulkOptions {
  /** Checked before each issue: abort to stop after the current one. */
  readonly signal?: AbortSignal;
  /** Called after each issue. */
  readonly onProgress?: (done: number, total: number) => void;
}

export const BULK_MAX = 500;

export interface TrackerStore extends SprintCommands, PeopleCommands, PeopleReads {
  readonly path: string;

  // Queries: synchronous, from memory (after picking up other processes' appends).
  getIssue(key: string): Issue;
  /**
   * The same, except that a large issue still in the snapshot file is read a piece a turn
   * (journal/snapshot-slot.ts), with other work between the pieces: for a read that can wait.
   */
  getIssueInTurns(key: string): Issue | Promise<Issue>;
  /** The statuses the issue may move to now (workflow.ts). */
  getTransitions(key: string): readonly Status[];
  /** The project's workflow: its own, or the default (model/workflow.ts). */
  getWorkflow(project: string): Workflow;
  /** The issue's links as it reads them (type and key). */
  getLinkKeys(key: string): readonly IssueLink[];
  /** Every link with the other issue's title, status and priority, and whether the issue is unblocked. */
  getIssueLinks(key: string): IssueLinks;
  /** The ready view (ready.ts): of one project, or of all. */
  getReady(project?: string): readonly Issue[];
  listIssues(query?: ListIssuesQuery): Page<Issue>;
  /** Runs the whole scan at once: for callers that must answer now. */
  searchIssues(query: SearchIssuesQuery): Page<Issue>;
  /**
   * The same answer, letting other work run between slices of the scan (see queries.ts): a
   * page when no pause was needed, a promise of it otherwise (always, searching in SQL).
   */
  searchIssuesYielding(query: SearchIssuesQuery): Page<Issue> | Promise<Page<Issue>>;
  getProject(key: string): Project;
  listProjects(): readonly Project[];
  /** The project's components, versions and custom fields (model/fields.ts); empty lists when it defined none. */
  getProjectFields(project: string): ProjectFields;
  getSprint(id: string): Sprint;
  listSprints(filter?: { readonly project?: string; readonly state?: SprintState }): readonly Sprint[];
  getProjectStats(project: string): ProjectStats;
  /** Stats of the project's active sprint. */
  getCurrentSprintStats(project: string): SprintStats;
  getSprintStats(sprintId: string): SprintStats;
  /** Remaining points and issues at the end of each day so far (burndown.ts). */
  getSprintBurndown(sprintId: string): Burndown;
  /** The active sprint "current" means for who asks (stats.ts currentSprintFor); null when none is active. */
  getCurrentSprint(): Sprint | null;
  /** What a sprint held: committed, added, removed, done, left open (sprint-report.ts). */
  getSprintReport(sprintId: string): SprintReport;
  /** Mean points done in the project's last closed sprints that held work. */
  getVelocity(project: string): Velocity;
  completeIssueKeys(prefix: string): Completion;
  completeProjectKeys(prefix: string): Completion;
  completeAssignees(prefix: string): Completion;
  /** A chosen project's own statuses, else every status a workflow names; by id or name. */
  completeStatuses(prefix: string, project?: string): Completion;
  completePriorities(prefix: string): Completion;
  completeSprintIds(prefix: string, project?: string): Completion;
  /** What changed the issue, who and when (history.ts): the most recent `limit`, newest first. */
  getHistory(key: string, limit?: number): IssueHistory;
  /** The issue's attachments (attachments.ts), oldest first, without their bytes. */
  getAttachments(key: string): readonly AttachmentInfo[];
  getAttachment(key: string, name: string): AttachmentFile;
  /** `key` '' (no issue chosen yet): names on any issue. */
  completeAttachmentNames(key: string, prefix: string): Completion;

  // Mutations: durable when the promise resolves.
  createIssue(input: CreateIssueInput): Promise<IssueMutation>;
  /** A move along the workflow; `resolution` only with done (default: done). */
  updateStatus(key: string, status: string, options?: { readonly resolution?: string }): Promise<IssueMutation>;
  /** null unassigns. */
  assignIssue(key: string, assignee: string | null): Promise<IssueMutation>;
  addComment(key: string, comment: { readonly body: string; readonly author?: string }): Promise<CommentMutation>;
  /** Within the bounds in attachments.ts; a refusal writes nothing. */
  addAttachment(key: string, input: AttachmentInput): Promise<AttachmentMutation>;
  /** null moves the issue to the backlog. */
  moveToSprint(key: string, sprintId: string | null): Promise<IssueMutation>;
  /** Fields, assignee, sprint, status and a comment in one call (update.ts); change.description lists each part. */
  updateIssue(key: string, input: UpdateIssueInput): Promise<IssueMutation>;
  /** Adds (or with remove, takes away) a link; returns the `from` issue. */
  linkIssues(from: string, type: string, to: string, remove?: boolean): Promise<IssueMutation>;
  /**
   * Replaces what the project's issues may carry (domain/fields.ts): the parts given
   * (components, versions, custom) replace the old ones, the others stay; a value an issue
   * still holds must stay allowed.
   */
  defineFields(project: string, fields: Readonly<Record<string, unknown>>): Promise<{ fields: ProjectFields; change: Change }>;
  /** Applies updateStatus to each key in turn; see BulkResult. */
  bulkUpdateStatus(keys: readonly string[], status: string, options?: BulkOptions): Promise<BulkResult>;

  // Import and export (import-commands.ts, snapshot.ts).
  importProject(input: ImportProjectInput): Promise<Change>;
  importSprint(input: ImportSprintInput): Promise<Sprint>;
  /** The issue as created; its key is the one asked for when the project allows (see import-commands.ts). */
  importIssue(input: ImportIssueInput): Promise<Issue>;
  /** The issue of that key brought to the input, a record per difference (import-commands.ts importUpdateSteps); what changed, described. */
  importUpdate(key: string, input: ImportIssueInput): Promise<{ issue: Issue; changes: string[] }>;
  /** An attachment as another store had it: its author and time kept. */
  importAttachment(key: string, attachment: Attachment): Promise<AttachmentInfo>;
  /**
   * Sets a project's workflow, written as domain/workflows.ts parseWorkflow reads it; `mapping`
   * moves the issues in a status it drops (from → to, by id or name). Refused, writing nothing,
   * when issues would be left in a status the workflow lacks.
   */
  setWorkflow(
    project: string,
    workflow: unknown,
    mapping?: Readonly<Record<string, string>>,
  ): Promise<{ workflow: Workflow; change: Change }>;
  /** Everything the store holds, in a stable order. */
  exportSnapshot(): TrackerSnapshot;

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  /** Picks up other processes' appends now (the watcher does this on its own). */
  refresh(): void;
  /** Stops watching and closes the file. Further calls throw. */
  close(): void; /**
   * Runs `call` as `user`: what it reads and writes inside, awaited parts included, takes that
   * user as currentUser(), reporter, comment author and history's `by` (over HTTP, the person a
   * request's token names). Outside it the store's own user and actor hold.
   */
  actingAs<T>(user: string, call: () => T): T;
}
