// Applying one journal record to the state: the only code that changes state.
//
// Used both when replaying the journal on open / catching up on other
// processes' appends, and right after our own append. A record that does not
// fit the current state means the journal is inconsistent: applyRecord throws
// a plain Error with the reason, and the caller adds file and line. Every rule
// is in checkRecord (check-record.ts), which changes nothing, so the writer can
// ask the reader's question before it writes (see journal.ts appendRecord).
//
// Entities are replaced, never mutated, and frozen: objects handed to callers
// are snapshots that stay valid and cannot be changed behind our back. An
// issue's comments are shared between its snapshots instead of copied into
// each (see issue-snapshot.ts).
import { noteScope, noteSprintClosed, noteSprintStarted } from './burndown.js';
import { indexIssueFields } from '../indexes/field-index.js';
import { base64Bytes, type Comment, type Issue, type LinkType, type Project, type Sprint } from '../model/schema.js';
import type { JournalRecord, RecordOf } from '../model/record-schema.js';
import { countAssignment, issueNumber, noteChild, type IssueLink, type TrackerState } from '../state/state.js';
import { indexComment, indexIssueText } from '../indexes/word-index.js';
import type { Change } from '../state/change.js';
import { checkRecord } from './check-record.js';
import { mappedStatus } from '../model/workflow.js';
import { isDone, noteWorkflow } from '../state/workflows.js';
import { commentLogOf, existingIssue, existingSprint } from './existing.js';
import { noteHistory } from './history.js';
import { applyPersonSaved } from './people.js';
import { fieldsOf, freezeComment, issueSnapshot, type IssueFields } from './issue-snapshot.js';

export function applyRecord(state: TrackerState, record: JournalRecord): Change {
  checkRecord(state, record);
  return applyChecked(state, record);
}

/** Applies a record that checkRecord has just passed against this very state (the writer's case). */
export function applyChecked(state: TrackerState, record: JournalRecord): Change {
  const change = applyByType(state, record);
  noteHistory(state, record, change);
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
    case 'project.workflow_set':
      return applyWorkflowSet(state, record);
    case 'issue.created':
      return applyIssueCreated(state, record.issue);
    case 'issue.status_changed':
      return applyStatusChanged(state, record);
    case 'issue.assigned': {
      const issue = existingIssue(state, record.key);
      countAssignment(state, record.from, -1);
      countAssignment(state, record.to, 1);
      if (record.to !== null) state.people.add(record.to);
      replaceIssue(state, issue, { assignee: record.to, updated_at: record.at });
      return issueChange(issue, describeAssignment(issue.key, record.from, record.to));
    }
    case 'issue.commented':
      return applyCommented(state, record.key, record.comment, record.at);
    case 'issue.sprint_changed':
      return applySprintChanged(state, record.key, record.from, record.to, record.at);
    case 'issue.linked':
    case 'issue.unlinked':
      return applyLink(state, record);
    case 'issue.parent_changed':
      return applyParentChanged(state, record);
    case 'issue.edited':
      return applyEdited(state, record);
    case 'issue.attachment_added':
      return applyAttachmentAdded(state, record);
    case 'sprint.started':
      noteSprintStarted(state, record.id, record.at);
      return applySprintState(state, record.id, 'active', record.at, 'started');
    case 'sprint.closed':
      return applySprintClosed(state, record);
    case 'sprint.goal_changed':
      return applySprintGoal(state, record);
    case 'project.fields_defined':
      return applyFieldsDefined(state, record);
    case 'person.saved':
      return applyPersonSaved(state, record);
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

function applyIssueCreated(state: TrackerState, input: Issue): Change {
  const log = input.comments.map(freezeComment);
  // A done issue from a file written before resolutions was done for the plain reason.
  const resolution = input.resolution ?? (isDone(state, input.status) ? 'done' : null);
  const issue = issueSnapshot({ ...fieldsOf(input), resolution, labels: Object.freeze([...input.labels]) }, log);
  state.issues.add(issue, log);
  indexIssue(state, undefined, issue);
  state.issueKeysByProject.get(issue.project)?.push(issue.key);
  state.nextIssueNumber.set(issue.project, issueNumber(issue.key) + 1);
  if (isDone(state, issue.status)) state.doneAt.set(issue.key, issue.updated_at);
  noteChild(state, issue.parent ?? null, issue.key, true);
  countAssignment(state, issue.assignee, 1);
  notePeople(state, issue, log);
  return issueChange(issue, `${issue.key} created: ${issue.title}`, true);
}

/**
 * The project's workflow from now on; the issues in a status it drops move as the mapping says.
 * Every issue of the project gets a new snapshot: its allowed moves changed (caches keep answers
 * per snapshot); only the moved ones are changed, and have it in their history.
 */
function applyWorkflowSet(state: TrackerState, record: RecordOf<'project.workflow_set'>): Change {
  noteWorkflow(state, record.project, record.workflow);
  const moved: Issue[] = [];
  for (const key of state.issueKeysByProject.get(record.project) ?? []) {
    const issue = existingIssue(state, key);
    const to = mappedStatus(record.mapping, issue.status);
    if (to !== issue.status) moved.push(issue);
    replaceIssue(state, issue, to === issue.status ? {} : { status: to, updated_at: record.at });
    const from = state.blockedFrom.get(key);
    if (from !== undefined) state.blockedFrom.set(key, mappedStatus(record.mapping, from));
  }
  const moves = Object.entries(record.mapping ?? {}).map(([from, to]) => `${from} → ${to}`);
  const what = moved.length === 0 ? '' : `; ${moved.length} issue${moved.length === 1 ? '' : 's'} moved: ${moves.join(', ')}`;
  const sprints = [...new Set(moved.flatMap((issue) => (issue.sprint === null ? [] : [issue.sprint])))];
  const description = `${record.project}'s workflow set (${record.workflow.statuses.length} statuses)${what}`;
  return change(
    description,
    moved.map((issue) => issue.key),
    sprints,
    [record.project],
    false,
  );
}

function applyCommented(state: TrackerState, key: string, input: Comment, at: string): Change {
  const issue = existingIssue(state, key);
  const log = commentLogOf(state, key);
  const comment = freezeComment(input);
  state.people.add(comment.author);
  log.push(comment);
  indexComment(state, key, comment.body);
  replaceIssue(state, issue, { updated_at: at });
  return issueChange(issue, `Comment #${comment.id} by ${comment.author} added to ${key}`);
}

function applyStatusChanged(state: TrackerState, record: RecordOf<'issue.status_changed'>): Change {
  const issue = existingIssue(state, record.key);
  const done = isDone(state, record.to);
  const resolution = done ? (record.resolution ?? 'done') : null;
  if (record.to === 'blocked') state.blockedFrom.set(issue.key, record.from);
  else state.blockedFrom.delete(issue.key);
  if (done) state.doneAt.set(issue.key, record.at);
  else state.doneAt.delete(issue.key);
  replaceIssue(state, issue, { status: record.to, resolution, updated_at: record.at });
  const resolved = resolution === null ? '' : ` (${resolution})`;
  return issueChange(issue, `${issue.key} status: ${record.from} → ${record.to}${resolved}`);
}

function applySprintChanged(state: TrackerState, key: string, from: string | null, to: string | null, at: string): Change {
  const issue = existingIssue(state, key);
  replaceIssue(state, issue, { sprint: to, updated_at: at });
  // Membership changed: both sprints' stats move. The sprint the issue left no
  // longer sees the issue's updated_at, so its last_updated needs this mark.
  for (const id of [from, to]) if (id !== null) state.sprintTouchedAt.set(id, at);
  const sprints = [from, to].filter((id): id is string => id !== null);
  return change(`${key} moved from ${from ?? 'the backlog'} to ${to ?? 'the backlog'}`, [key], sprints, [issue.project], false);
}

// Links: each end keeps the link as it reads from there (A blocks B; B is blocked by A).
// Links live beside the issues, not in them, so updated_at stays (the sprint's numbers do not
// move either); both issues still get new snapshots, which drops what caches hold for them.

function applyLink(state: TrackerState, record: RecordOf<'issue.linked' | 'issue.unlinked'>): Change {
  const ends: [string, IssueLink][] = [
    [record.key, { type: record.link, key: record.to }],
    [record.to, { type: reverseOf(record.link), key: record.key }],
  ];
  for (const [key, link] of ends) {
    const links = state.links.get(key) ?? [];
    const kept = links.filter((l) => l.type !== link.type || l.key !== link.key);
    const next = record.type === 'issue.linked' ? [...kept, Object.freeze(link)] : kept;
    if (next.length === 0) state.links.delete(key);
    else state.links.set(key, Object.freeze(next));
  }
  const from = existingIssue(state, record.key);
  const to = existingIssue(state, record.to);
  replaceIssue(state, from, {});
  replaceIssue(state, to, {});
  const verb = record.type === 'issue.linked' ? 'now' : 'no longer';
  return twoIssueChange(from, to, `${record.key} ${verb} ${record.link.replace('_', ' ')} ${record.to}`);
}

function reverseOf(link: LinkType): IssueLink['type'] {
  if (link === 'blocks') return 'is_blocked_by';
  if (link === 'duplicates') return 'is_duplicated_by';
  return link;
}

function applyParentChanged(state: TrackerState, record: RecordOf<'issue.parent_changed'>): Change {
  const issue = existingIssue(state, record.key);
  // Like links, an issue's epic is structure around the work: updated_at stays.
  replaceIssue(state, issue, { parent: record.to });
  noteChild(state, record.from, issue.key, false);
  noteChild(state, record.to, issue.key, true);
  // The epics' child lists changed: they get new snapshots too.
  const epics = [record.from, record.to].filter((key): key is string => key !== null).map((key) => existingIssue(state, key));
  for (const epic of epics) replaceIssue(state, epic, {});
  const description =
    record.to === null
      ? `${record.key} removed from epic ${record.from ?? ''}`
      : `${record.key} is now a child of epic ${record.to}`;
  const touched = [issue, ...epics];
  return change(
    description,
    touched.map((i) => i.key),
    [...new Set(touched.flatMap((i) => (i.sprint === null ? [] : [i.sprint])))],
    [...new Set(touched.map((i) => i.project))],
    false,
  );
}

function applyEdited(state: TrackerState, record: RecordOf<'issue.edited'>): Change {
  const issue = existingIssue(state, record.key);
  const { labels, fields, ...rest } = record.to;
  // null: the issue has no fields left (issue-snapshot.ts leaves the property out).
  const patch: Partial<IssueFields> = {
    ...rest,
    ...(fields === undefined ? {} : { fields: fields ?? undefined }),
    updated_at: record.at,
  };
  replaceIssue(state, issue, labels === undefined ? patch : { ...patch, labels: Object.freeze([...labels]) });
  return issueChange(issue, `${record.key} edited: ${Object.keys(record.to).join(', ')}`);
}

function applyAttachmentAdded(state: TrackerState, record: RecordOf<'issue.attachment_added'>): Change {
  const issue = existingIssue(state, record.key);
  const { name, mime_type, content, author, created_at } = record.attachment;
  const attachment = Object.freeze({ name, mime_type, content, size: base64Bytes(content), author, created_at });
  state.attachments.set(issue.key, Object.freeze([...(state.attachments.get(issue.key) ?? []), attachment]));
  state.attachmentBytes += attachment.size;
  state.people.add(author);
  // The attachment's own time, never back: an imported one keeps the issue's later updated_at.
  replaceIssue(state, issue, { updated_at: created_at > issue.updated_at ? created_at : issue.updated_at });
  return issueChange(issue, `${name} (${mime_type}, ${attachment.size} bytes) attached to ${issue.key} by ${author}`);
}

// Sprints: one active sprint per project; closing carries the unfinished issues in the same record.

function applySprintClosed(state: TrackerState, record: RecordOf<'sprint.closed'>): Change {
  const closed = applySprintState(state, record.id, 'closed', record.at, 'closed');
  noteSprintClosed(
    state,
    record.id,
    record.at,
    record.carried.map((key) => existingIssue(state, key)),
  );
  for (const key of record.carried) {
    replaceIssue(state, existingIssue(state, key), { sprint: record.carried_to, updated_at: record.at });
  }
  if (record.carried_to !== null) state.sprintTouchedAt.set(record.carried_to, record.at);
  const where = record.carried_to ?? 'the backlog';
  return change(
    `${closed.description}; ${record.carried.length} unfinished issues carried to ${where}`,
    [...record.carried],
    record.carried_to === null ? [record.id] : [record.id, record.carried_to],
    closed.projects.slice(),
    false,
  );
}

function applySprintState(state: TrackerState, id: string, to: Sprint['state'], at: string, verb: string): Change {
  const sprint = existingSprint(state, id);
  state.sprints.set(id, Object.freeze({ ...sprint, state: to }));
  state.sprintTouchedAt.set(id, at);
  return change(`Sprint ${id} (${sprint.name}) ${verb}`, [], [id], [sprint.project], false);
}

function applySprintGoal(state: TrackerState, record: RecordOf<'sprint.goal_changed'>): Change {
  const sprint = existingSprint(state, record.id);
  state.sprints.set(sprint.id, Object.freeze({ ...sprint, goal: record.to }));
  state.sprintTouchedAt.set(sprint.id, record.at);
  return change(`Sprint ${sprint.id} goal: ${record.to}`, [], [sprint.id], [sprint.project], false);
}

/** What the project's issues may carry from now on (model/fields.ts); its issues are not touched. */
function applyFieldsDefined(state: TrackerState, record: RecordOf<'project.fields_defined'>): Change {
  const { components, versions, custom } = record.fields;
  state.projectFields.set(
    record.project,
    Object.freeze({
      components: Object.freeze([...components]),
      versions: Object.freeze([...versions]),
      custom: Object.freeze(custom.map((field) => Object.freeze({ ...field }))),
    }),
  );
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const counts = `${count(components.length, 'component')}, ${count(versions.length, 'version')}, ${count(custom.length, 'custom field')}`;
  return change(`${record.project} fields defined: ${counts}`, [], [], [record.project], false);
}

/** The issue's next snapshot: its fields with `patch` applied, and all its comments so far. */
function replaceIssue(state: TrackerState, issue: Issue, patch: Partial<IssueFields>): void {
  const next = issueSnapshot({ ...fieldsOf(issue), ...patch }, commentLogOf(state, issue.key));
  state.issues.replace(next);
  indexIssue(state, issue, next);
}

/** Keeps the query indexes (once built) in step with the issues: the one place an issue enters or changes. */
function indexIssue(state: TrackerState, before: Issue | undefined, after: Issue): void {
  indexIssueFields(state, before, after);
  indexIssueText(state, before, after);
  if (after.fields === undefined) state.fieldIssues.delete(after.key);
  else state.fieldIssues.add(after.key);
  noteScope(state, before, after);
}

function notePeople(state: TrackerState, issue: Issue, comments: readonly Comment[]): void {
  state.people.add(issue.reporter);
  if (issue.assignee !== null) state.people.add(issue.assignee);
  for (const comment of comments) state.people.add(comment.author);
}

function describeAssignment(key: string, from: string | null, to: string | null): string {
  if (to === null) return `${key} unassigned (was ${from ?? 'nobody'})`;
  return `${key} assigned to ${to} (was ${from ?? 'unassigned'})`;
}

function twoIssueChange(a: Issue, b: Issue, description: string): Change {
  const sprints = [...new Set([a.sprint, b.sprint].filter((id): id is string => id !== null))];
  return change(description, [a.key, b.key], sprints, [...new Set([a.project, b.project])], false);
}

function issueChange(issue: Issue, description: string, created = false): Change {
  const sprints = issue.sprint === null ? [] : [issue.sprint];
  return change(description, [issue.key], sprints, [issue.project], created);
}

function change(description: string, issues: string[], sprints: string[], projects: string[], issueSetChanged: boolean): Change {
  return { description, issues, sprints, projects, issueSetChanged };
}
