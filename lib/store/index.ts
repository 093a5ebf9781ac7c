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

export { openStore } from './store.js';
export { loadWrites } from './writes-loader.js';
export { queryLanguage } from './queries/jql-loader.js';
export { loadExchangeText } from './exchange-loader.js';
export { BULK_MAX } from './store-api.js';
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
} from './store-api.js';
export type { Change } from './state/change.js';
export type { CreateIssueInput } from './domain/commands.js';
export { PEOPLE_SHOWN_MAX, type PersonInput, type PersonListing, type PersonMet } from './domain/people.js';
export type { AttachmentInfo, AttachmentInput } from './domain/attachments.js';
export { HISTORY_SHOWN_DEFAULT, HISTORY_SHOWN_MAX, type IssueHistory } from './changes/history.js';
export type { HistoryEntry } from './state/issue-table.js';
export { SPRINT_LIMITS, type CreateSprintInput, type SprintMutation } from './domain/sprints.js';
export type { Page, ListIssuesQuery, SearchIssuesQuery } from './queries/search-request.js';
export type { ProjectStats, SprintStats, IssueCounts } from './domain/stats.js';
export type { Burndown, BurndownPoint } from './changes/burndown.js';
export type { SprintReport, Velocity } from './domain/sprint-report.js';
export { COMPLETION_CAP, type Completion } from './domain/completions.js';
export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './model/args.js';
export { parseHandle, parseIssueKey, parsePriority, parseProjectKey, parseSprintId } from './model/args.js';
export { parseStatus, parseResolution, allowedMoves, OPEN_STATUSES } from './model/workflow.js';
export { canonicalQuery } from './queries/jql/run.js';
/** The JQL vocabulary, which completion offers (lib/tracker/jql-completion.ts). */
export { FIELDS, FUNCTIONS, KEYWORDS } from './queries/jql/ast.js';

export {
  resolveDataPath,
  DATA_ENV_VAR,
  DATA_FILE_NAME,
  type DataPath,
  type DataPathInputs,
  type DataPathSource,
} from './data-path.js';
export { stderrLogger, silentLogger, type Logger, type LogLevel } from './model/log.js';
export { nextTurn } from './model/turns.js';
export {
  isDomainError,
  isStoreFileError,
  type DomainError,
  type DomainErrorCode,
  type StoreFileError,
  type StoreFileErrorReason,
} from './model/errors.js';

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
  ProjectFieldsSchema,
  FIELD_TYPES,
  type ProjectFields,
  type Issue,
  type Project,
  type Sprint,
  type Comment,
  type Status,
  type Resolution,
  type Priority,
  type IssueType,
  type SprintState,
} from './model/schema.js';
