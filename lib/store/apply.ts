// Applying one journal record to the state: the only code that changes state.
//
// Used both when replaying the journal on open / catching up on other
// processes' appends, and right after our own append. A record that does not
// fit the current state (unknown issue, `from` differs from the current
// value, seq out of order...) means the journal is inconsistent: applyRecord
// throws a plain Error with the reason, and the caller adds file and line.
// Every rule is in checkRecord, which changes nothing, so the writer can ask
// the reader's question before it writes (see journal.ts appendRecord).
//
// Entities are replaced, never mutated, and frozen: objects handed to callers
// are snapshots that stay valid and cannot be changed behind our back.
import type { Comment, Issue, JournalRecord, Project, Sprint } from './schema.js';
import { countAssignment, issueNumber, type TrackerState } from './state.js';

/** What one record changed; also the change description returned by mutations. */
export interface Change {
  /** One line for people: "PROJ-101 status: todo → in_progress". */
  readonly description: string;
  /** Issue keys whose content changed. */
  readonly issues: readonly string[];
  /** Sprint ids whose contents or stats changed. */
  readonly sprints: readonly string[];
  /** Project keys whose contents or stats changed. */
  readonly projects: readonly string[];
  /** True when an issue was created (lists of issues changed, not only their contents). */
  readonly issueSetChanged: boolean;
}

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
    case 'issue.created':
      return checkIssueCreated(state, record.issue);
    case 'issue.status_changed':
      return expectCurrent('status', existingIssue(state, record.key).status, record.from);
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
  }
}

export function applyRecord(state: TrackerState, record: JournalRecord): Change {
  checkRecord(state, record);
  const change = applyByType(state, record);
  state.lastSeq = record.seq;
  return change;
}

/** Changes the state; checkRecord has passed. */
function applyByType(state: TrackerState, record: JournalRecord): Change {
  switch (record.type) {
    case 'project.created':
      return applyProjectCreated(state, record.project);
    case 'sprint.created':
      return applySprintCreated(state, record.sprint, record.at);
    case 'issue.created':
      return applyIssueCreated(state, record.issue);
    case 'issue.status_changed': {
      const issue = existingIssue(state, record.key);
      replaceIssue(state, { ...issue, status: record.to, updated_at: record.at });
      return issueChange(issue, `${issue.key} status: ${record.from} → ${record.to}`);
    }
    case 'issue.assigned': {
      const issue = existingIssue(state, record.key);
      countAssignment(state, record.from, -1);
      countAssignment(state, record.to, 1);
      if (record.to !== null) state.people.add(record.to);
      replaceIssue(state, { ...issue, assignee: record.to, updated_at: record.at });
      return issueChange(issue, describeAssignment(issue.key, record.from, record.to));
    }
    case 'issue.commented':
      return applyCommented(state, record.key, record.comment, record.at);
    case 'issue.sprint_changed':
      return applySprintChanged(state, record.key, record.from, record.to, record.at);
  }
}

function applyProjectCreated(state: TrackerState, input: Project): Change {
  const project = Object.freeze({ key: input.key, name: input.name, description: input.description, lead: input.lead });
  state.projects.set(project.key, project);
  state.issueKeysByProject.set(project.key, []);
  state.nextIssueNumber.set(project.key, 1);
  state.people.add(project.lead);
  return change(`Project ${project.key} (${project.name}) created`, [], [], [project.key], false);
}

function checkSprintCreated(state: TrackerState, input: Sprint): void {
  if (state.sprints.has(input.id)) throw new Error(`sprint ${input.id} already exists`);
  existingProject(state, input.project);
  if (!input.id.startsWith(`${input.project}-S`))
    throw new Error(`sprint ${input.id} is not named after project ${input.project}`);
}

function applySprintCreated(state: TrackerState, input: Sprint, at: string): Change {
  const sprint = Object.freeze({
    id: input.id,
    name: input.name,
    project: input.project,
    state: input.state,
    start_date: input.start_date,
    end_date: input.end_date,
    goal: input.goal,
  });
  state.sprints.set(sprint.id, sprint);
  state.sprintTouchedAt.set(sprint.id, at);
  return change(`Sprint ${sprint.id} (${sprint.name}) created in ${sprint.project}`, [], [sprint.id], [sprint.project], false);
}

function checkIssueCreated(state: TrackerState, input: Issue): void {
  if (state.issues.has(input.key)) throw new Error(`issue ${input.key} already exists`);
  existingProject(state, input.project);
  if (!input.key.startsWith(`${input.project}-`))
    throw new Error(`issue ${input.key} is not named after project ${input.project}`);
  const next = state.nextIssueNumber.get(input.project) ?? 1;
  if (issueNumber(input.key) < next) throw new Error(`issue ${input.key} reuses a number; the next free number is ${next}`);
  if (input.sprint !== null) sprintOfProject(state, input.sprint, input.project);
  input.comments.forEach((comment, index) => {
    if (comment.id !== index + 1) throw new Error(`issue ${input.key} comment ids must be 1, 2, 3...`);
  });
}

function applyIssueCreated(state: TrackerState, input: Issue): Change {
  const issue = freezeIssue(input);
  state.issues.set(issue.key, issue);
  state.issueKeysByProject.get(issue.project)?.push(issue.key);
  state.nextIssueNumber.set(issue.project, issueNumber(issue.key) + 1);
  countAssignment(state, issue.assignee, 1);
  notePeople(state, issue);
  return issueChange(issue, `${issue.key} created: ${issue.title}`, true);
}

function checkCommented(state: TrackerState, key: string, input: Comment): void {
  const expectedId = existingIssue(state, key).comments.length + 1;
  if (input.id !== expectedId) throw new Error(`comment id ${input.id} on ${key}; expected ${expectedId}`);
}

function applyCommented(state: TrackerState, key: string, input: Comment, at: string): Change {
  const issue = existingIssue(state, key);
  const comment = freezeComment(input);
  state.people.add(comment.author);
  replaceIssue(state, { ...issue, comments: Object.freeze([...issue.comments, comment]), updated_at: at });
  return issueChange(issue, `Comment #${comment.id} by ${comment.author} added to ${key}`);
}

function applySprintChanged(state: TrackerState, key: string, from: string | null, to: string | null, at: string): Change {
  const issue = existingIssue(state, key);
  replaceIssue(state, { ...issue, sprint: to, updated_at: at });
  // Membership changed: both sprints' stats move. The sprint the issue left no
  // longer sees the issue's updated_at, so its last_updated needs this mark.
  for (const id of [from, to]) if (id !== null) state.sprintTouchedAt.set(id, at);
  const sprints = [from, to].filter((id): id is string => id !== null);
  return change(`${key} moved from ${from ?? 'the backlog'} to ${to ?? 'the backlog'}`, [key], sprints, [issue.project], false);
}

// ---------------------------------------------------------------------------

function existingIssue(state: TrackerState, key: string): Issue {
  const issue = state.issues.get(key);
  if (issue === undefined) throw new Error(`issue ${key} does not exist`);
  return issue;
}

function existingProject(state: TrackerState, key: string): Project {
  const project = state.projects.get(key);
  if (project === undefined) throw new Error(`project ${key} does not exist`);
  return project;
}

function sprintOfProject(state: TrackerState, id: string, project: string): Sprint {
  const sprint = state.sprints.get(id);
  if (sprint === undefined) throw new Error(`sprint ${id} does not exist`);
  if (sprint.project !== project) throw new Error(`sprint ${id} belongs to ${sprint.project}, not ${project}`);
  return sprint;
}

/** `from` in a record must equal the current value, or records were lost or reordered. */
function expectCurrent(field: string, current: string | null, from: string | null): void {
  if (current !== from) throw new Error(`${field} was ${String(current)} but the record says it was ${String(from)}`);
}

function replaceIssue(state: TrackerState, next: Issue): void {
  state.issues.set(next.key, Object.freeze(next));
  state.searchText.delete(next.key);
}

function notePeople(state: TrackerState, issue: Issue): void {
  state.people.add(issue.reporter);
  if (issue.assignee !== null) state.people.add(issue.assignee);
  for (const comment of issue.comments) state.people.add(comment.author);
}

function describeAssignment(key: string, from: string | null, to: string | null): string {
  if (to === null) return `${key} unassigned (was ${from ?? 'nobody'})`;
  return `${key} assigned to ${to} (was ${from ?? 'unassigned'})`;
}

function issueChange(issue: Issue, description: string, created = false): Change {
  const sprints = issue.sprint === null ? [] : [issue.sprint];
  return change(description, [issue.key], sprints, [issue.project], created);
}

function change(description: string, issues: string[], sprints: string[], projects: string[], issueSetChanged: boolean): Change {
  return { description, issues, sprints, projects, issueSetChanged };
}

/** Copies only the known fields (as zod would strip extras) and freezes. */
function freezeIssue(input: Issue): Issue {
  return Object.freeze({
    key: input.key,
    project: input.project,
    title: input.title,
    description: input.description,
    type: input.type,
    status: input.status,
    priority: input.priority,
    assignee: input.assignee,
    reporter: input.reporter,
    story_points: input.story_points,
    sprint: input.sprint,
    labels: Object.freeze([...input.labels]),
    comments: Object.freeze(input.comments.map(freezeComment)),
    created_at: input.created_at,
    updated_at: input.updated_at,
  });
}

function freezeComment(input: Comment): Comment {
  return Object.freeze({ id: input.id, author: input.author, body: input.body, created_at: input.created_at });
}
