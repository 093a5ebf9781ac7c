// The sprint tracker's data store: public API.
//
//   const { path } = resolveDataPath({ argv: process.argv.slice(2), env: process.env, home: os.homedir(), cwd: process.cwd() })
//   const store = await openStore({ path, log: stderrLogger })
//   const { issue, change } = await store.updateStatus('PROJ-101', 'done')
//   store.getCurrentSprintStats('PROJ').progress_pct
//   const stop = store.onChange((event) => ...)   // our and other processes' changes
//   store.close()
//
// Errors: DomainError (the call was wrong: message says how to fix it) and
// StoreFileError (the data file cannot be used: file, line, what to do).
// The store knows nothing about MCP.

export { openStore, BULK_MAX } from './store.js';
export type {
  OpenStoreOptions,
  TrackerStore,
  IssueMutation,
  CommentMutation,
  AttachmentMutation,
  AttachmentFile,
  ChangeEvent,
  ChangeListener,
  BulkOptions,
  BulkOutcome,
  BulkResult,
} from './store.js';
export type { Change } from './apply.js';
export type { CreateIssueInput } from './commands.js';
export type { AttachmentInfo, AttachmentInput } from './attachments.js';
export { HISTORY_SHOWN_DEFAULT, HISTORY_SHOWN_MAX, type HistoryEntry, type IssueHistory } from './history.js';
export { SPRINT_LIMITS, type CreateSprintInput, type SprintMutation } from './sprints.js';
export type { Page, ListIssuesQuery, SearchIssuesQuery } from './queries.js';
export type { ProjectStats, SprintStats, IssueCounts } from './stats.js';
export type { Burndown, BurndownPoint } from './burndown.js';
export { COMPLETION_CAP, type Completion } from './completions.js';
export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './args.js';
export { parseHandle, parseIssueKey, parsePriority, parseProjectKey, parseSprintId } from './args.js';
export { parseStatus, parseResolution, allowedMoves, OPEN_STATUSES } from './workflow.js';
export { canonicalQuery } from './jql/run.js';

export {
  resolveDataPath,
  DATA_ENV_VAR,
  DATA_FILE_NAME,
  type DataPath,
  type DataPathInputs,
  type DataPathSource,
} from './data-path.js';
export { stderrLogger, silentLogger, type Logger, type LogLevel } from './log.js';
export {
  isDomainError,
  isStoreFileError,
  type DomainError,
  type DomainErrorCode,
  type StoreFileError,
  type StoreFileErrorReason,
} from './errors.js';

// Schemas, for callers that build tool input/output schemas from the same source.
export {
  IssueSchema,
  ProjectSchema,
  SprintSchema,
  CommentSchema,
  StatusSchema,
  ResolutionSchema,
  PrioritySchema,
  IssueTypeSchema,
  SprintStateSchema,
  STATUSES,
  RESOLUTIONS,
  PRIORITIES,
  ISSUE_TYPES,
  SPRINT_STATES,
  ISSUE_KEY_PATTERN,
  PROJECT_KEY_PATTERN,
  SPRINT_ID_PATTERN,
  LIMITS,
  ATTACHMENT_NAME_PATTERN,
  type Issue,
  type Project,
  type Sprint,
  type Comment,
  type Status,
  type Resolution,
  type Priority,
  type IssueType,
  type SprintState,
} from './schema.js';
