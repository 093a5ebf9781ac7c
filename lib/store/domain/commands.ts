// Turning a validated request into the journal record that performs it.
//
// Each plan* function runs under the journal lock against the current state
// (after catching up on other processes' appends), enforces the domain rules,
// and returns the record to append, or null when the request changes nothing
// (e.g. setting the status an issue already has: nothing is written).
//
// Workflow: a status moves only along the workflow (workflow.ts); the
// refusal names the moves that are allowed from where the issue is.
import {
  parseHandle,
  parseIssueKey,
  parseIssueType,
  parseLabels,
  parsePriority,
  parseProjectKey,
  parseSprintId,
  parseStoryPoints,
  parseText,
} from '../model/args.js';
import { PEOPLE_LIMITS } from '../model/person.js';
import { requirePersonNamed } from '../state/people.js';
import { domainError } from '../model/errors.js';
import { describeSprints, parentRefusal, requireIssue, requireProject, requireSprint } from '../state/lookup.js';
import { LIMITS, type Issue, type IssueType, type Priority } from '../model/schema.js';
import type { RecordDraft } from '../model/record-schema.js';
import { commentCount, sortedSprints, type TrackerState } from '../state/state.js';
import { categoryIn, parseResolution, parseStatus, requireMove } from '../model/workflow.js';
import { workflowOf } from '../state/workflows.js';
import { parseFieldsArgument } from '../model/fields.js';
import { checkedFields } from './fields.js';

export interface CreateIssueInput {
  readonly project: string;
  readonly title: string;
  readonly description?: string;
  /** Default: task. */
  readonly type?: string;
  /** Default: P2. */
  readonly priority?: string;
  /** A person by handle, display name, e-mail or alias (state/people.ts); null or absent: unassigned. */
  readonly assignee?: string | null;
  /** Default: the store's `actor`. */
  readonly reporter?: string;
  readonly story_points?: number | null;
  /** A sprint of the same project that is not closed; null or absent for the backlog. */
  readonly sprint?: string | null;
  readonly labels?: readonly string[];
  /** The key of an epic; absent or null for none. */
  readonly parent?: string | null;
  /** Due date, components, fix versions and the project's custom fields by name (model/fields.ts). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** A CreateIssueInput whose values have passed their format checks. */
export interface CreateIssueRequest {
  readonly project: string;
  readonly title: string;
  readonly description: string;
  readonly type: IssueType;
  readonly priority: Priority;
  /** As given: found in the people directory when the issue is planned. */
  readonly assignee: string | null;
  readonly reporter: string;
  readonly story_points: number | null;
  readonly sprint: string | null;
  readonly labels: readonly string[];
  readonly parent: string | null;
  /** Checked against the project's definition when planned. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Format checks only: cheap, and done before taking the lock. */
export function parseCreateIssue(input: CreateIssueInput, actor: string): CreateIssueRequest {
  return {
    project: parseProjectKey(input.project),
    title: parseText(input.title, 'Title', 1, LIMITS.titleMax),
    description: input.description === undefined ? '' : parseText(input.description, 'Description', 0, LIMITS.descriptionMax),
    type: input.type === undefined ? 'task' : parseIssueType(input.type),
    priority: input.priority === undefined ? 'P2' : parsePriority(input.priority),
    assignee: parsePersonName(input.assignee, 'assignee'),
    reporter: input.reporter === undefined ? actor : parseHandle(input.reporter, 'reporter'),
    story_points: parseStoryPoints(input.story_points),
    sprint: input.sprint === undefined || input.sprint === null ? null : parseSprintId(input.sprint),
    labels: parseLabels(input.labels),
    parent: input.parent === undefined || input.parent === null ? null : parseIssueKey(input.parent, 'parent'),
    fields: input.fields === undefined ? {} : parseFieldsArgument(input.fields),
  };
}

/** A person as a caller names them (found when planned); null, absent or "" for nobody. */
export function parsePersonName(value: unknown, field: string): string | null {
  return value === null || value === undefined || value === '' ? null : parseText(value, field, 1, PEOPLE_LIMITS.emailMax);
}

/** Allocates the next key of the project: safe because it runs under the lock. */
export function planCreateIssue(state: TrackerState, request: CreateIssueRequest, at: string): RecordDraft {
  requireProject(state, request.project);
  if (request.sprint !== null) requireOpenSprintOf(state, request.sprint, request.project, 'the new issue');
  if (request.parent !== null) requireParent(state, request.type, request.parent);
  const number = state.nextIssueNumber.get(request.project) ?? 1;
  if (number > LIMITS.maxIssueNumber) {
    throw domainError(
      'conflict',
      `Project ${request.project} has used every issue number up to the limit of ${LIMITS.maxIssueNumber}; no issue was created. Create the issue in another project.`,
    );
  }
  const { fields: changes, ...given } = request;
  const fields = checkedFields(state, request.project, undefined, changes);
  const issue: Issue = {
    key: `${request.project}-${number}`,
    ...given,
    ...(fields === undefined ? {} : { fields }),
    assignee: request.assignee === null ? null : requirePersonNamed(state, request.assignee, 'assignee'),
    status: workflowOf(state, given.project).statuses[0]?.id ?? 'todo',
    resolution: null,
    comments: [],
    created_at: at,
    updated_at: at,
  };
  return { type: 'issue.created', issue };
}

/**
 * A move along the workflow of the issue's project, whose names the status and resolution are
 * read by; a resolution only on a move to a done status (default: the workflow's first).
 */
export function planStatusChange(
  state: TrackerState,
  key: string,
  rawStatus: string,
  rawResolution?: string,
): RecordDraft | null {
  const issue = requireIssue(state, key);
  const workflow = workflowOf(state, issue.project);
  const status = parseStatus(rawStatus, workflow);
  const resolution = rawResolution === undefined ? undefined : parseResolution(rawResolution, workflow);
  const done = categoryIn(workflow, status) === 'done';
  if (resolution !== undefined && !done) {
    throw domainError('invalid_argument', `A resolution goes with a move to a done status, not to ${status}. Leave it out.`);
  }
  if (issue.status === status && (resolution === undefined || resolution === issue.resolution)) return null;
  if (issue.status === status) {
    throw domainError('conflict', `${key} is already ${status} (${issue.resolution ?? status}); reopen it to resolve it again.`);
  }
  requireMove(workflow, key, issue.status, status, state.blockedFrom.get(key), resolution);
  if (!done) return { type: 'issue.status_changed', key, from: issue.status, to: status };
  return { type: 'issue.status_changed', key, from: issue.status, to: status, resolution: resolution ?? workflow.resolutions[0] };
}

export function planAssignment(state: TrackerState, key: string, assignee: string | null): RecordDraft | null {
  const issue = requireIssue(state, key);
  if (issue.assignee === assignee) return null;
  return { type: 'issue.assigned', key, from: issue.assignee, to: assignee };
}

export type CommentDraft = Extract<RecordDraft, { type: 'issue.commented' }>;

export function planComment(state: TrackerState, key: string, author: string, body: string, at: string): CommentDraft {
  requireIssue(state, key);
  const count = commentCount(state, key);
  if (count >= LIMITS.commentsPerIssueMax) {
    throw domainError(
      'conflict',
      `${key} already has ${count} comments, the most one issue may have (${LIMITS.commentsPerIssueMax}). Carry the discussion on in a new issue.`,
    );
  }
  const comment = { id: count + 1, author, body, created_at: at };
  return { type: 'issue.commented', key, comment };
}

export function planSprintMove(state: TrackerState, key: string, sprint: string | null): RecordDraft | null {
  const issue = requireIssue(state, key);
  if (sprint !== null) requireOpenSprintOf(state, sprint, issue.project, key);
  if (issue.sprint === sprint) return null;
  return { type: 'issue.sprint_changed', key, from: issue.sprint, to: sprint };
}

/** A parent is an epic, or an issue that is not a sub-task (lookup.ts parentRefusal). */
export function requireParent(state: TrackerState, type: IssueType, key: string): void {
  const refusal = parentRefusal(state, { key: null, type }, requireIssue(state, key));
  if (refusal !== null) throw domainError('invalid_argument', refusal);
}

/** Issues go into active or future sprints of their own project. */
function requireOpenSprintOf(state: TrackerState, id: string, project: string, what: string): void {
  const sprint = requireSprint(state, id);
  const open = sortedSprints(state, project).filter((s) => s.state !== 'closed');
  const alternatives = `Use a sprint of ${project} that is not closed (${describeSprints(open)}), or null for the backlog.`;
  if (sprint.project !== project) {
    throw domainError(
      'invalid_argument',
      `Sprint ${id} belongs to project ${sprint.project}, but ${what} is in ${project}. ${alternatives}`,
    );
  }
  if (sprint.state === 'closed') {
    throw domainError('invalid_argument', `Sprint ${id} (${sprint.name}) is closed. ${alternatives}`);
  }
}
