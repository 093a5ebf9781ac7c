// Whether a record fits the state: every rule a journal record must keep, checked without
// changing anything (apply.ts changes the state once a record has passed). A record that does
// not fit (unknown issue, `from` differs from the current value, seq out of order...) means the
// journal is inconsistent: the check throws a plain Error with the reason, and the caller adds
// file and line. The writer asks the reader's question before it writes (see journal.ts
// appendRecord), so the file never holds a line its next reader would refuse.
import { LIMITS, type Comment, type Issue, type Sprint } from '../model/schema.js';
import type { EditableFields, JournalRecord, RecordOf } from '../model/record-schema.js';
import { findAttachment, findLink, issueNumber, type TrackerState } from '../state/state.js';
import { checkPersonSaved } from './people.js';
import { mappedStatus, workflowProblem, workflowStatus } from '../model/workflow.js';
import { isDone } from '../state/workflows.js';
import { commentLogOf, existingIssue, existingParent, existingProject, existingSprint, sprintOfProject } from './existing.js';

/**
 * Throws (a plain Error with the reason) when the record does not fit the state; changes
 * nothing. The reader runs it on every line, through applyRecord; the writer runs it before a
 * record reaches the disk, so the file never holds a line its next reader would refuse.
 */
export function checkRecord(state: TrackerState, record: JournalRecord): void {
  if (record.seq !== state.lastSeq + 1) {
    throw new Error(`record seq ${record.seq} is out of order; expected ${state.lastSeq + 1}`);
  }
  switch (record.type) {
    case 'project.created':
      if (state.projects.has(record.project.key)) throw new Error(`project ${record.project.key} already exists`);
      return;
    case 'sprint.created':
      return checkSprintCreated(state, record.sprint);
    case 'project.workflow_set':
      return checkWorkflowSet(state, record);
    case 'issue.created':
      return checkIssueCreated(state, record.issue);
    case 'issue.status_changed':
      expectCurrent('status', existingIssue(state, record.key).status, record.from);
      if (record.resolution !== undefined && !isDone(state, record.to)) throw new Error(`a resolution on a move to ${record.to}`);
      return;
    case 'issue.assigned':
      return expectCurrent('assignee', existingIssue(state, record.key).assignee, record.from);
    case 'issue.commented':
      return checkCommented(state, record.key, record.comment);
    case 'issue.sprint_changed': {
      const issue = existingIssue(state, record.key);
      expectCurrent('sprint', issue.sprint, record.from);
      if (record.to !== null) sprintOfProject(state, record.to, issue.project);
      return;
    }
    case 'issue.linked':
    case 'issue.unlinked':
      return checkLink(state, record);
    case 'issue.parent_changed':
      expectCurrent('parent', existingIssue(state, record.key).parent ?? null, record.from);
      if (record.to !== null) existingParent(state, record.key, record.to);
      return;
    case 'issue.edited':
      return checkEdited(state, record);
    case 'issue.attachment_added':
      existingIssue(state, record.key);
      if (findAttachment(state, record.key, record.attachment.name) !== undefined)
        throw new Error(`${record.key} already has an attachment named ${record.attachment.name}`);
      return;
    case 'sprint.started':
      return checkSprintStarted(state, record.id);
    case 'sprint.closed':
      return checkSprintClosed(state, record);
    case 'sprint.goal_changed':
      return expectCurrent('goal', existingSprint(state, record.id).goal, record.from);
    case 'project.fields_defined':
      existingProject(state, record.project);
      return;
    case 'person.saved':
      return checkPersonSaved(state, record.person);
  }
}

function checkSprintCreated(state: TrackerState, input: Sprint): void {
  if (state.sprints.has(input.id)) throw new Error(`sprint ${input.id} already exists`);
  existingProject(state, input.project);
  if (!input.id.startsWith(`${input.project}-S`))
    throw new Error(`sprint ${input.id} is not named after project ${input.project}`);
}

/** A workflow that is one (workflow.ts), after whose mapping no issue of the project sits in a status it lacks. */
function checkWorkflowSet(state: TrackerState, record: RecordOf<'project.workflow_set'>): void {
  existingProject(state, record.project);
  const problem = workflowProblem(record.workflow);
  if (problem !== null) throw new Error(`the workflow of ${record.project}: ${problem}`);
  for (const [from, to] of Object.entries(record.mapping ?? {})) {
    if (workflowStatus(record.workflow, to) === undefined)
      throw new Error(`the mapping moves ${from} to ${to}, which the workflow of ${record.project} lacks`);
  }
  for (const key of state.issueKeysByProject.get(record.project) ?? []) {
    const status = existingIssue(state, key).status;
    if (workflowStatus(record.workflow, mappedStatus(record.mapping, status)) === undefined)
      throw new Error(`${key} would be left in ${status}, which the workflow of ${record.project} lacks`);
  }
}

function checkIssueCreated(state: TrackerState, input: Issue): void {
  if (state.issues.has(input.key)) throw new Error(`issue ${input.key} already exists`);
  existingProject(state, input.project);
  if (!input.key.startsWith(`${input.project}-`))
    throw new Error(`issue ${input.key} is not named after project ${input.project}`);
  const next = state.nextIssueNumber.get(input.project) ?? 1;
  if (issueNumber(input.key) < next) throw new Error(`issue ${input.key} reuses a number; the next free number is ${next}`);
  if (input.sprint !== null) sprintOfProject(state, input.sprint, input.project);
  if (input.parent !== undefined && input.parent !== null) existingParent(state, input, input.parent);
  if (input.resolution !== undefined && input.resolution !== null && !isDone(state, input.status)) {
    throw new Error(`issue ${input.key} has a resolution but is ${input.status}`);
  }
  input.comments.forEach((comment, index) => {
    if (comment.id !== index + 1) throw new Error(`issue ${input.key} comment ids must be 1, 2, 3...`);
  });
}

/** Reads the log's length, never `issue.comments`, which would copy the comments out. */
function checkCommented(state: TrackerState, key: string, input: Comment): void {
  existingIssue(state, key);
  const log = commentLogOf(state, key);
  const expectedId = log.length + 1;
  if (input.id !== expectedId) throw new Error(`comment id ${input.id} on ${key}; expected ${expectedId}`);
  if (log.length >= LIMITS.commentsPerIssueReadMax) {
    throw new Error(`${key} already has ${log.length} comments, the most one issue may have (${LIMITS.commentsPerIssueReadMax})`);
  }
}

// Links: a link is made once and removed only where it is, never from an issue to itself.

function checkLink(state: TrackerState, record: RecordOf<'issue.linked' | 'issue.unlinked'>): void {
  existingIssue(state, record.key);
  existingIssue(state, record.to);
  if (record.key === record.to) throw new Error(`issue ${record.key} cannot be linked to itself`);
  const present = findLink(state, record.key, record.link, record.to) !== undefined;
  if (record.type === 'issue.linked' && present) throw new Error(`${record.key} ${record.link} ${record.to} already`);
  if (record.type === 'issue.unlinked' && !present) throw new Error(`${record.key} does not ${record.link} ${record.to}`);
}

function checkEdited(state: TrackerState, record: RecordOf<'issue.edited'>): void {
  const issue = existingIssue(state, record.key);
  const fields = Object.keys(record.to) as (keyof EditableFields)[];
  if (fields.length === 0) throw new Error(`an edit of ${record.key} that changes nothing`);
  for (const field of fields) {
    if (!(field in record.from)) throw new Error(`the edit of ${record.key} has no old value for ${field}`);
    // An issue without fields has none (undefined) where the record says null.
    expectCurrent(field, JSON.stringify(issue[field] ?? null), JSON.stringify(record.from[field] ?? null));
  }
}

// Sprints: one active sprint per project; closing carries the unfinished issues in the same record.

function checkSprintStarted(state: TrackerState, id: string): void {
  const sprint = existingSprint(state, id);
  if (sprint.state !== 'future') throw new Error(`sprint ${id} is ${sprint.state}, not future`);
  const active = [...state.sprints.values()].find((s) => s.project === sprint.project && s.state === 'active');
  if (active !== undefined) throw new Error(`sprint ${active.id} of ${sprint.project} is already active`);
}

function checkSprintClosed(state: TrackerState, record: RecordOf<'sprint.closed'>): void {
  const sprint = existingSprint(state, record.id);
  if (sprint.state !== 'active') throw new Error(`sprint ${record.id} is ${sprint.state}, not active`);
  if (record.carried_to !== null) {
    const next = sprintOfProject(state, record.carried_to, sprint.project);
    if (next.state === 'closed' || next.id === sprint.id) throw new Error(`issues cannot be carried to ${next.id}`);
  }
  for (const key of record.carried) {
    const issue = existingIssue(state, key);
    if (issue.sprint !== record.id) throw new Error(`${key} is not in sprint ${record.id}`);
  }
}

/** `from` in a record must equal the current value, or records were lost or reordered. */
function expectCurrent(field: string, current: string | null, from: string | null): void {
  if (current !== from) throw new Error(`${field} was ${String(current)} but the record says it was ${String(from)}`);
}
