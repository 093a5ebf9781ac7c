// The store commands an import uses: a project, a sprint and an issue as another tracker had
// them (an issue keeps its status, resolution, times and comments), each planned like every
// other command (commands.ts): format checks with the tools' parsers first, then the domain
// checks against the state under the lock, and one record, or a refusal that writes nothing.
//
// What differs from create_issue is deliberate: an imported issue is not new work, so it
// does not start in todo (its workflow happened elsewhere; workflow.ts says a journal may
// hold such history), it may sit in a closed sprint, and it keeps its key when the project
// allows: when that number is above every number the project has used (issues are numbered
// in order, see state.ts). Otherwise it takes the project's next number, and the caller is
// told which key it got.
import { parseHandle, parseIssueKey, parseProjectKey, parseSprintId, parseText } from '../model/args.js';
import { parseCreateIssue, planAssignment, planComment, requireParent, type CreateIssueInput } from './commands.js';
import { planEdit, type UpdateStep } from './update.js';
import { checkedFields, planFieldsEdit } from './fields.js';
import { domainError } from '../model/errors.js';
import { requireIssue, requireProject, requireSprint } from '../state/lookup.js';
import {
  DATE_PATTERN,
  LIMITS,
  SPRINT_STATES,
  TIMESTAMP_PATTERN,
  type Comment,
  type Issue,
  type Resolution,
  type SprintState,
  type Status,
} from '../model/schema.js';
import type { RecordDraft } from '../model/record-schema.js';
import { issueNumber, sortedSprints, sprintNumber, type TrackerState } from '../state/state.js';
import { categoryIn, parseResolution, parseStatus } from '../model/workflow.js';
import { workflowOf } from '../state/workflows.js';

export interface ImportProjectInput {
  readonly key: string;
  readonly name: string;
  readonly description?: string;
  readonly lead: string;
}

export interface ImportSprintInput {
  readonly project: string;
  /** Kept when free; absent: the project's next sprint number. */
  readonly id?: string;
  readonly name: string;
  /** Default: future. */
  readonly state?: string;
  /** Calendar days (YYYY-MM-DD). */
  readonly start_date: string;
  readonly end_date: string;
  readonly goal?: string;
}

export interface ImportIssueInput extends CreateIssueInput {
  /** Kept when the project allows (see above); absent: the next number. */
  readonly key?: string;
  /** Default: todo. Forgiving names (workflow.ts parseStatus). */
  readonly status?: string;
  /** With status done only; default done. */
  readonly resolution?: string | null;
  /** Any time Date can read; default: now. */
  readonly created_at?: string;
  /** Default: created_at. */
  readonly updated_at?: string;
  /** Author default: the importing user, as for the reporter; time default: created_at. */
  readonly comments?: readonly { readonly author?: string; readonly body: string; readonly created_at?: string }[];
}

export function planImportProject(state: TrackerState, input: ImportProjectInput): RecordDraft {
  const key = parseProjectKey(input.key);
  if (state.projects.has(key)) throw domainError('conflict', `Project ${key} already exists.`);
  const project = {
    key,
    name: parseText(input.name, 'Project name', 1, LIMITS.nameMax),
    description: parseText(input.description ?? '', 'Project description', 0, LIMITS.projectDescriptionMax),
    lead: parseHandle(input.lead, 'project lead'),
  };
  return { type: 'project.created', project };
}

export function planImportSprint(state: TrackerState, input: ImportSprintInput): RecordDraft {
  const project = requireProject(state, parseProjectKey(input.project)).key;
  const next = Math.max(0, ...sortedSprints(state, project).map((s) => sprintNumber(s.id))) + 1;
  const id = input.id === undefined ? `${project}-S${next}` : parseSprintId(input.id);
  if (!id.startsWith(`${project}-S`))
    throw domainError('invalid_argument', `Sprint ${id} is not named after project ${project}.`);
  if (state.sprints.has(id)) throw domainError('conflict', `Sprint ${id} already exists.`);
  const sprint = {
    id,
    name: parseText(input.name, 'Sprint name', 1, LIMITS.nameMax),
    project,
    state: parseSprintState(input.state ?? 'future'),
    start_date: parseDay(input.start_date, 'start_date'),
    end_date: parseDay(input.end_date, 'end_date'),
    goal: parseText(input.goal ?? '', 'Sprint goal', 0, LIMITS.goalMax),
  };
  return { type: 'sprint.created', sprint };
}

/** Format checks only, before the lock: the same parsers as create_issue and update_issue. */
export interface ImportIssueRequest {
  readonly key: string | null;
  readonly fields: ReturnType<typeof parseCreateIssue>;
  /** As given (null: none); read by the workflow of the issue's project under the lock (importedStatus). */
  readonly status: string | null;
  readonly resolution: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly comments: readonly Comment[];
}

export function parseImportIssue(input: ImportIssueInput, actor: string, now: string): ImportIssueRequest {
  const fields = parseCreateIssue(input, actor);
  const status =
    input.status === undefined || input.status === '' ? null : parseText(input.status, 'status', 1, LIMITS.statusNameMax);
  const absent = input.resolution === undefined || input.resolution === null || input.resolution === '';
  const resolution = absent ? null : parseText(input.resolution, 'resolution', 1, LIMITS.statusNameMax);
  const created_at = input.created_at === undefined ? now : parseTime(input.created_at, 'created');
  // An import brings history, as a journal does: the bound is the one on reading a journal,
  // so whatever a store holds, its export imports again.
  const comments = input.comments ?? [];
  if (comments.length > LIMITS.commentsPerIssueReadMax) {
    throw domainError('invalid_argument', `${comments.length} comments; an issue may hold ${LIMITS.commentsPerIssueReadMax}.`);
  }
  return {
    key: input.key === undefined || input.key === '' ? null : parseIssueKey(input.key),
    fields,
    status,
    resolution,
    created_at,
    updated_at: input.updated_at === undefined ? created_at : parseTime(input.updated_at, 'updated'),
    // Each refusal names the comment: an issue brings many, and a file's reader must find the one.
    comments: comments.map((comment, index) => ({
      id: index + 1,
      author: parseHandle(comment.author ?? actor, `author of comment ${index + 1}`),
      body: parseText(comment.body, `Comment ${index + 1}`, 1, LIMITS.commentMax),
      created_at: comment.created_at === undefined ? created_at : parseTime(comment.created_at, `comment ${index + 1}`),
    })),
  };
}

export function planImportIssue(state: TrackerState, request: ImportIssueRequest): RecordDraft {
  const { fields } = request;
  requireProject(state, fields.project);
  if (fields.sprint !== null) {
    const sprint = requireSprint(state, fields.sprint);
    if (sprint.project !== fields.project) {
      throw domainError('invalid_argument', `Sprint ${sprint.id} belongs to project ${sprint.project}, not ${fields.project}.`);
    }
  }
  if (fields.parent !== null) {
    requireParent(state, fields.type, fields.parent);
  }
  const { fields: changes, ...given } = fields;
  const values = checkedFields(state, fields.project, undefined, changes);
  const issue: Issue = {
    ...given,
    ...(values === undefined ? {} : { fields: values }),
    key: importedKey(state, fields.project, request.key),
    ...importedStatus(state, fields.project, request),
    comments: request.comments,
    created_at: request.created_at,
    updated_at: request.updated_at,
  };
  return { type: 'issue.created', issue };
}

/**
 * An import of an issue the store has (the same key, a file imported again): the issue is
 * brought to the row, never created twice. Each difference is its own record, as update_issue
 * writes them: fields, assignee, sprint (a closed one too: history), status (as the row has it,
 * outside the workflow, as an import's created issue is), then the row's comments the issue
 * lacks (same author and body). The reporter and creation time stay as first imported.
 */
export function importUpdateSteps(key: string, request: ImportIssueRequest): UpdateStep[] {
  const { fields } = request;
  const edited = {
    title: fields.title,
    description: fields.description,
    type: fields.type,
    priority: fields.priority,
    story_points: fields.story_points,
    labels: [...fields.labels],
  };
  const steps: UpdateStep[] = [
    (state) => planEdit(state, key, edited),
    // The row's fields replace the issue's: one the row no longer has is cleared.
    (state) => {
      const cleared = Object.fromEntries(Object.keys(requireIssue(state, key).fields ?? {}).map((name) => [name, null]));
      return planFieldsEdit(state, key, { ...cleared, ...fields.fields });
    },
    (state) => planAssignment(state, key, fields.assignee),
    (state) => {
      const issue = requireIssue(state, key);
      if (fields.sprint !== null) requireSprint(state, fields.sprint);
      return issue.sprint === fields.sprint ? null : { type: 'issue.sprint_changed', key, from: issue.sprint, to: fields.sprint };
    },
    (state) => {
      const issue = requireIssue(state, key);
      const { status, resolution } = importedStatus(state, issue.project, request);
      if (issue.status === status) return null;
      return {
        type: 'issue.status_changed',
        key,
        from: issue.status,
        to: status,
        ...(resolution === null ? {} : { resolution }),
      };
    },
  ];
  for (const comment of request.comments) {
    steps.push((state) => {
      const present = requireIssue(state, key).comments.some((c) => c.author === comment.author && c.body === comment.body);
      return present ? null : planComment(state, key, comment.author, comment.body, comment.created_at);
    });
  }
  return steps;
}

/**
 * The row's status and resolution in the workflow of the issue's project: by default its first
 * status; a done status is resolved (by default the workflow's first resolution), an open one never.
 */
function importedStatus(
  state: TrackerState,
  project: string,
  request: ImportIssueRequest,
): { status: Status; resolution: Resolution | null } {
  const workflow = workflowOf(state, project);
  const status = request.status === null ? (workflow.statuses[0]?.id ?? 'todo') : parseStatus(request.status, workflow);
  const done = categoryIn(workflow, status) === 'done';
  const resolution = request.resolution === null ? null : parseResolution(request.resolution, workflow);
  if (resolution !== null && !done) {
    throw domainError('invalid_argument', `A resolution goes with a done status, not ${status}.`);
  }
  return { status, resolution: done ? (resolution ?? workflow.resolutions[0] ?? 'done') : null };
}

/** The key asked for when it belongs to the project and its number is still unused and free; else the next. */
function importedKey(state: TrackerState, project: string, wanted: string | null): string {
  const next = state.nextIssueNumber.get(project) ?? 1;
  const keep = wanted !== null && wanted.startsWith(`${project}-`) && issueNumber(wanted) >= next;
  if (keep) return wanted;
  if (next > LIMITS.maxIssueNumber) {
    throw domainError('conflict', `Project ${project} has used every issue number up to ${LIMITS.maxIssueNumber}.`);
  }
  return `${project}-${next}`;
}

function parseSprintState(value: string): SprintState {
  const state = SPRINT_STATES.find((s) => s === value.trim().toLowerCase());
  if (state === undefined)
    throw domainError('invalid_argument', `Unknown sprint state '${value}'. Use one of: ${SPRINT_STATES.join(', ')}.`);
  return state;
}

function parseDay(value: string, field: string): string {
  if (typeof value !== 'string' || !DATE_PATTERN.test(value) || Number.isNaN(Date.parse(value))) {
    throw domainError('invalid_argument', `Invalid ${field} '${String(value)}'. Use a day such as 2026-12-02.`);
  }
  return value;
}

/** Any time Date.parse reads, kept as toISOString writes it (the journal's form). */
export function parseTime(value: string, field: string): string {
  const time = typeof value === 'string' && value.length <= 64 ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time) || !TIMESTAMP_PATTERN.test(new Date(time).toISOString())) {
    throw domainError(
      'invalid_argument',
      `Invalid ${field} time '${String(value).slice(0, 40)}'. Use ISO 8601, such as 2026-12-02T09:30:00Z.`,
    );
  }
  return new Date(time).toISOString();
}
