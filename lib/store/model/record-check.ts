// A hand-written validator for journal records: the fast path for opening.
//
// It accepts exactly what JournalRecordSchema (record-schema.ts) accepts (and checkJournalHeader what
// JournalHeaderSchema accepts, so that opening a file runs no zod at all) — built from
// the same patterns, limits and enums — for a fraction of zod's time, which
// matters when a journal holds 100,000 issues (docs/performance.md). Unknown extra fields are ignored, as
// zod ignores them; apply.ts copies only the known fields into the state.
// lib/tests/store-record-check.test.ts checks the agreement with fast-check.
import {
  isStoryPoints,
  ATTACHMENT_BASE64_MAX,
  ATTACHMENT_NAME_PATTERN,
  DATE_PATTERN,
  FIELD_NAME_PATTERN,
  FIELD_TYPES,
  HANDLE_PATTERN,
  ISSUE_KEY_PATTERN,
  ISSUE_NUMBER_TOO_LARGE,
  issueNumberWithinLimit,
  ISSUE_TYPES,
  isBase64,
  JOURNAL_FORMAT,
  LABEL_PATTERN,
  LINK_TYPES,
  LIMITS,
  MIME_TYPE_PATTERN,
  NOT_BASE64,
  PRIORITIES,
  PROJECT_KEY_PATTERN,
  SPRINT_ID_PATTERN,
  SPRINT_STATES,
  TIMESTAMP_PATTERN,
  WORKFLOW_ID_PATTERN,
} from './schema.js';
import { EMAIL_PATTERN, PEOPLE_LIMITS } from './person.js';

/**
 * Returns null when the value is valid, else the reason. Field paths are
 * added only on failure: building them for every field of every record would
 * cost more than the checks themselves.
 */
type Check = (value: unknown) => string | null;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(min: number, max: number, pattern?: RegExp): Check {
  return (value) => {
    if (typeof value !== 'string') return ': expected a string';
    if (value.length < min || value.length > max) return `: expected ${min}..${max} characters`;
    if (pattern !== undefined && !pattern.test(value)) return `: does not match ${pattern.source}`;
    return null;
  };
}

function integer(min: number, max: number = Number.MAX_SAFE_INTEGER): Check {
  return (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
      ? null
      : `: expected an integer ${min}..${max}`;
}

const storyPoints: Check = (value) =>
  typeof value === 'number' && isStoryPoints(value)
    ? null
    : `: expected story points 0..${LIMITS.storyPointsMax}, to the hundredth`;

function oneOf(options: readonly string[]): Check {
  const allowed = new Set<unknown>(options);
  return (value) => (allowed.has(value) ? null : `: expected one of ${options.join(', ')}`);
}

function nullable(check: Check): Check {
  return (value) => (value === null ? null : check(value));
}

/** A field files written before it was added do not have. */
function optional(check: Check): Check {
  return (value) => (value === undefined ? null : check(value));
}

function arrayOf(check: Check, max: number = Number.MAX_SAFE_INTEGER): Check {
  return (value) => {
    if (!Array.isArray(value)) return ': expected an array';
    if (value.length > max) return `: expected at most ${max} items`;
    for (let i = 0; i < value.length; i++) {
      const problem = check(value[i]);
      if (problem !== null) return `[${i}]${problem}`;
    }
    return null;
  };
}

function objectOf(fields: Readonly<Record<string, Check>>): Check {
  const names = Object.keys(fields);
  const checks = Object.values(fields);
  return (value) => {
    if (!isPlainObject(value)) return ': expected an object';
    // An indexed loop: this runs ~20 times per record on open.
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const problem = (checks[i] as Check)(value[name]);
      if (problem !== null) return `.${name}${problem}`;
    }
    return null;
  };
}

const projectKey = text(0, Infinity, PROJECT_KEY_PATTERN);
const issueKeyText = text(0, LIMITS.maxKeyLength, ISSUE_KEY_PATTERN);
const issueKey: Check = (value) =>
  issueKeyText(value) ?? (issueNumberWithinLimit(value as string) ? null : `: ${ISSUE_NUMBER_TOO_LARGE}`);
const sprintId = text(0, LIMITS.maxKeyLength, SPRINT_ID_PATTERN);
const handle = text(0, Infinity, HANDLE_PATTERN);
const timestamp = text(0, Infinity, TIMESTAMP_PATTERN);
const date = text(0, Infinity, DATE_PATTERN);
const status = text(0, Infinity, WORKFLOW_ID_PATTERN);
const resolution = status;

const project = objectOf({
  key: projectKey,
  name: text(1, LIMITS.nameMax),
  description: text(0, LIMITS.projectDescriptionMax),
  lead: handle,
});

const sprint = objectOf({
  id: sprintId,
  name: text(1, LIMITS.nameMax),
  project: projectKey,
  state: oneOf(SPRINT_STATES),
  start_date: date,
  end_date: date,
  goal: text(0, LIMITS.goalMax),
});

const comment = objectOf({
  id: integer(1),
  author: handle,
  body: text(1, LIMITS.commentMax),
  created_at: timestamp,
});

const base64Text = text(0, ATTACHMENT_BASE64_MAX);
const attachment = objectOf({
  name: text(0, Infinity, ATTACHMENT_NAME_PATTERN),
  mime_type: text(0, Infinity, MIME_TYPE_PATTERN),
  content: (value) => base64Text(value) ?? (isBase64(value as string) ? null : `: ${NOT_BASE64}`),
  author: handle,
  created_at: timestamp,
});

const fieldName = text(0, Infinity, FIELD_NAME_PATTERN);
const fieldNames = arrayOf(fieldName, LIMITS.fieldOptionsMax);
const fieldValue: Check = (value) => {
  if (typeof value === 'number') return Number.isFinite(value) ? null : ': expected a finite number';
  if (typeof value === 'string') return text(1, LIMITS.fieldTextMax)(value);
  if (Array.isArray(value) && value.length === 0) return ': expected at least 1 item';
  return Array.isArray(value) ? arrayOf(fieldName, LIMITS.fieldValuesMax)(value) : ': expected a number, a string or a list';
};
/** An issue's fields (schema.ts IssueFieldsSchema): names to values. */
const issueFields: Check = (value) => {
  if (!isPlainObject(value)) return ': expected an object';
  const names = Object.keys(value);
  if (names.length > LIMITS.customFieldsMax + 3) return `: expected at most ${LIMITS.customFieldsMax + 3} fields`;
  for (const name of names) {
    const problem = fieldName(name) ?? fieldValue(value[name]);
    if (problem !== null) return `.${name}${problem}`;
  }
  return null;
};
const fieldDefinition = objectOf({
  name: fieldName,
  type: oneOf(FIELD_TYPES),
  options: optional(fieldNames),
});
const projectFields = objectOf({
  components: fieldNames,
  versions: fieldNames,
  custom: arrayOf(fieldDefinition, LIMITS.customFieldsMax),
});

const issue = objectOf({
  key: issueKey,
  project: projectKey,
  title: text(1, LIMITS.titleMax),
  description: text(0, LIMITS.descriptionMax),
  type: oneOf(ISSUE_TYPES),
  status,
  priority: oneOf(PRIORITIES),
  assignee: nullable(handle),
  reporter: handle,
  story_points: nullable(storyPoints),
  sprint: nullable(sprintId),
  labels: arrayOf(text(0, Infinity, LABEL_PATTERN), LIMITS.labelsMax),
  resolution: optional(nullable(resolution)),
  parent: optional(nullable(issueKey)),
  fields: optional(issueFields),
  comments: arrayOf(comment, LIMITS.commentsPerIssueReadMax),
  created_at: timestamp,
  updated_at: timestamp,
});

const editable = objectOf({
  title: optional(text(1, LIMITS.titleMax)),
  description: optional(text(0, LIMITS.descriptionMax)),
  type: optional(oneOf(ISSUE_TYPES)),
  priority: optional(oneOf(PRIORITIES)),
  story_points: optional(nullable(storyPoints)),
  labels: optional(arrayOf(text(0, Infinity, LABEL_PATTERN), LIMITS.labelsMax)),
  fields: optional(nullable(issueFields)),
});
const linkType = oneOf(LINK_TYPES);
const person = objectOf({
  handle,
  name: text(1, LIMITS.nameMax),
  email: nullable(text(0, PEOPLE_LIMITS.emailMax, EMAIL_PATTERN)),
  aliases: arrayOf(text(1, PEOPLE_LIMITS.aliasMax), PEOPLE_LIMITS.aliasesMax),
});
const goal = text(0, LIMITS.goalMax);

/** An object whose keys are statuses, each value checked by `check` (a workflow's moves, a mapping). */
function byStatus(check: Check): Check {
  return (value) => {
    if (!isPlainObject(value)) return ': expected an object';
    for (const [from, to] of Object.entries(value)) {
      const problem = status(from) ?? check(to);
      if (problem !== null) return `.${from}${problem}`;
    }
    return null;
  };
}

const workflow = objectOf({
  statuses: (value) =>
    Array.isArray(value) && value.length === 0
      ? ': expected at least 1 item'
      : arrayOf(
          objectOf({ id: status, name: text(1, LIMITS.statusNameMax), category: oneOf(['todo', 'inprogress', 'done']) }),
          LIMITS.workflowStatusesMax,
        )(value),
  transitions: byStatus(arrayOf(status, LIMITS.workflowStatusesMax)),
  resolutions: (value) =>
    Array.isArray(value) && value.length === 0
      ? ': expected at least 1 item'
      : arrayOf(resolution, LIMITS.workflowResolutionsMax)(value),
  close_from_any_open: (value) => (typeof value === 'boolean' ? null : ': expected a boolean'),
});

const base = { seq: integer(1), at: timestamp, by: optional(handle) };

const checksByType: ReadonlyMap<unknown, Check> = new Map<string, Check>([
  ['project.created', objectOf({ ...base, project })],
  ['sprint.created', objectOf({ ...base, sprint })],
  ['project.workflow_set', objectOf({ ...base, project: projectKey, workflow, mapping: optional(byStatus(status)) })],
  ['issue.created', objectOf({ ...base, issue })],
  ['issue.status_changed', objectOf({ ...base, key: issueKey, from: status, to: status, resolution: optional(resolution) })],
  ['issue.assigned', objectOf({ ...base, key: issueKey, from: nullable(handle), to: nullable(handle) })],
  ['issue.commented', objectOf({ ...base, key: issueKey, comment })],
  ['issue.sprint_changed', objectOf({ ...base, key: issueKey, from: nullable(sprintId), to: nullable(sprintId) })],
  ['issue.linked', objectOf({ ...base, key: issueKey, link: linkType, to: issueKey })],
  ['issue.unlinked', objectOf({ ...base, key: issueKey, link: linkType, to: issueKey })],
  ['issue.parent_changed', objectOf({ ...base, key: issueKey, from: nullable(issueKey), to: nullable(issueKey) })],
  ['issue.edited', objectOf({ ...base, key: issueKey, from: editable, to: editable })],
  ['issue.attachment_added', objectOf({ ...base, key: issueKey, attachment })],
  ['sprint.started', objectOf({ ...base, id: sprintId })],
  ['sprint.closed', objectOf({ ...base, id: sprintId, carried: arrayOf(issueKey), carried_to: nullable(sprintId) })],
  ['sprint.goal_changed', objectOf({ ...base, id: sprintId, from: goal, to: goal })],
  ['project.fields_defined', objectOf({ ...base, project: projectKey, fields: projectFields })],
  ['person.saved', objectOf({ ...base, person })],
]);

export const RECORD_TYPES: readonly string[] = [...checksByType.keys()] as string[];

const header = objectOf({ format: oneOf([JOURNAL_FORMAT]), version: integer(1), created_at: timestamp });

/** null when `value` is a valid JournalHeader (JournalHeaderSchema); otherwise why not. */
export function checkJournalHeader(value: unknown): string | null {
  if (!isPlainObject(value)) return 'expected a JSON object';
  const problem = header(value);
  return problem === null ? null : problem.slice(1);
}

/** null when `value` is a valid JournalRecord; otherwise why not. */
export function checkJournalRecord(value: unknown): string | null {
  if (!isPlainObject(value)) return 'expected a JSON object';
  const check = checksByType.get(value['type']);
  if (check === undefined) return `type: expected one of ${RECORD_TYPES.join(', ')}`;
  const problem = check(value);
  // ".issue.labels[2]: does not match ..." → "issue.labels[2]: does not match ..."
  return problem === null ? null : problem.slice(1);
}
