// update_issue: one call that may edit fields, reassign, move to a sprint, move along the
// workflow and comment. Each of those is its own journal record (the journal knows one kind
// of change per line), written in this order: fields, assignee, sprint, status, comment.
//
// Every part is checked before the first is written: the formats up front, then each plan
// against the data as it is now (parts touch different fields, so one cannot make another
// fit). If another process changes the issue between that check and a write, the part that
// no longer fits is refused with its reason and the ones before it stay written; the answer
// then names them.
import { parseIssueType, parseLabels, parsePriority, parseStoryPoints, parseText } from '../model/args.js';
import { parsePersonName, planAssignment, planComment, planSprintMove, planStatusChange } from './commands.js';
import { domainError } from '../model/errors.js';
import { requireIssue, sprintIdOf } from '../state/lookup.js';
import { requirePersonNamed } from '../state/people.js';
import { LIMITS } from '../model/schema.js';
import type { EditableFields, RecordDraft } from '../model/record-schema.js';
import type { TrackerState } from '../state/state.js';
import { parseFieldsArgument } from '../model/fields.js';
import { planFieldsEdit } from './fields.js';

export interface UpdateIssueInput {
  readonly title?: string;
  readonly description?: string;
  readonly type?: string;
  readonly priority?: string;
  readonly story_points?: number | null;
  readonly labels?: readonly string[];
  /** A person by handle, display name, e-mail or alias; null unassigns. */
  readonly assignee?: string | null;
  /** null moves the issue to the backlog. */
  readonly sprint?: string | null;
  readonly status?: string;
  /** With status done only. */
  readonly resolution?: string;
  /** Added after the other changes, by the store's actor. */
  readonly comment?: string;
  /** Due date, components, fix versions, custom fields by name; null clears one (model/fields.ts). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** One part of an update: plans its record against the state of the moment, or null for no change. */
export type UpdateStep = (state: TrackerState, at: string) => RecordDraft | null;

/** Format checks of every part, then the steps in the order they are written. */
export function updateSteps(key: string, input: UpdateIssueInput, actor: string): UpdateStep[] {
  const fields = parseEditableFields(input);
  const steps: UpdateStep[] = [];
  if (Object.keys(fields).length > 0) steps.push((state) => planEdit(state, key, fields));
  if (input.fields !== undefined) {
    const changes = parseFieldsArgument(input.fields);
    steps.push((state) => planFieldsEdit(state, key, changes));
  }
  if (input.assignee !== undefined) {
    const assignee = parsePersonName(input.assignee, 'assignee');
    steps.push((state) => planAssignment(state, key, assignee === null ? null : requirePersonNamed(state, assignee, 'assignee')));
  }
  if (input.sprint !== undefined) {
    const sprint = input.sprint === null || input.sprint === '' ? null : parseText(input.sprint, 'sprint', 1, LIMITS.nameMax);
    const project = key.slice(0, key.lastIndexOf('-'));
    steps.push((state) => planSprintMove(state, key, sprint === null ? null : sprintIdOf(state, sprint, project)));
  }
  const transition = parseTransition(input.status, input.resolution);
  if (transition !== null) steps.push((state) => planStatusChange(state, key, transition.status, transition.resolution));
  if (input.comment !== undefined) {
    const body = parseText(input.comment, 'comment', 1, LIMITS.commentMax);
    steps.push((state, at) => planComment(state, key, actor, body, at));
  }
  if (steps.length === 0) {
    throw domainError(
      'invalid_argument',
      'Nothing to update: give at least one of title, description, type, priority, story_points, labels, fields, assignee, sprint, status, comment.',
    );
  }
  return steps;
}

/** Their format only: the names are read by the workflow of the issue's project (commands.ts planStatusChange). */
function parseTransition(status: unknown, resolution: unknown): { status: string; resolution?: string } | null {
  if (status === undefined) {
    if (resolution !== undefined)
      throw domainError('invalid_argument', 'A resolution goes with status done; add status: "done".');
    return null;
  }
  const parsed = parseText(status, 'status', 1, LIMITS.statusNameMax);
  return resolution === undefined
    ? { status: parsed }
    : { status: parsed, resolution: parseText(resolution, 'resolution', 1, LIMITS.statusNameMax) };
}

function parseEditableFields(input: UpdateIssueInput): EditableFields {
  const fields: { -readonly [K in keyof EditableFields]: EditableFields[K] } = {};
  if (input.title !== undefined) fields.title = parseText(input.title, 'Title', 1, LIMITS.titleMax);
  if (input.description !== undefined) fields.description = parseText(input.description, 'Description', 0, LIMITS.descriptionMax);
  if (input.type !== undefined) fields.type = parseIssueType(input.type);
  if (input.priority !== undefined) fields.priority = parsePriority(input.priority);
  if (input.story_points !== undefined) fields.story_points = parseStoryPoints(input.story_points);
  if (input.labels !== undefined) fields.labels = parseLabels(input.labels);
  return fields;
}

/** Only the fields whose value differs; an epic with children stays an epic. */
export function planEdit(state: TrackerState, key: string, fields: EditableFields): RecordDraft | null {
  const issue = requireIssue(state, key);
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    const current = issue[field as keyof EditableFields];
    if (JSON.stringify(current) === JSON.stringify(value)) continue;
    from[field] = current;
    to[field] = value;
  }
  if (Object.keys(to).length === 0) return null;
  const children = state.children.get(key)?.length ?? 0;
  if (to.type !== undefined && issue.type === 'epic' && children > 0) {
    throw domainError(
      'conflict',
      `${key} is an epic with ${children} children; it stays an epic. Remove them first (link_issues, remove).`,
    );
  }
  if (to.type === 'epic' && issue.parent) {
    throw domainError('conflict', `${key} belongs to epic ${issue.parent}; an epic has no parent. Remove it first.`);
  }
  return { type: 'issue.edited', key, from: from as EditableFields, to: to as EditableFields };
}

/** Why the rest of an update was not made, after some parts were written. */
export function partlyDone(done: readonly string[], error: Error): Error {
  if (done.length === 0) return error;
  return domainError('conflict', `${error.message} Already saved before this: ${done.join('; ')}.`);
}
