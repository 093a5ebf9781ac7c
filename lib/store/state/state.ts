// The in-memory state the journal replays into, and its small indexes.
//
// Indexes are deliberately simple: Maps by key, and per-project arrays of
// issue keys in creation order. Creation order is ascending issue number,
// because numbers are allocated under the journal lock (max + 1), so those
// arrays are sorted without ever being sorted. Every map is keyed by
// validated keys, and Maps have no prototype to pollute.
//
// The state knows nothing of the indexes built from it (field-index.ts, word-index.ts): each
// keeps its own index per state, beside it, so the arrows run from the indexes to the state.
import type { LinkType, Project, ProjectFields, Sprint, Status } from '../model/schema.js';
import type { Person } from '../model/person.js';
import { DEFAULT_WORKFLOW, type StatusCategory, type Workflow } from '../model/workflow.js';
import { IssueTable } from './issue-table.js';

/** An attachment as the state keeps it: its record's fields and its decoded size. */
export interface StoredAttachment {
  readonly name: string;
  readonly mime_type: string;
  /** Base64, as the record carries it and as a blob resource sends it. */
  readonly content: string;
  readonly size: number;
  readonly author: string;
  readonly created_at: string;
}

/** A link as one end reads it: PROJ-2 `is_blocked_by` PROJ-1 when PROJ-1 blocks PROJ-2. */
export interface IssueLink {
  readonly type: LinkType | 'is_blocked_by' | 'is_duplicated_by';
  readonly key: string;
}

/** What one issue added to a sprint from `at` on (burndown.ts). */
export interface ScopeEvent {
  readonly at: string;
  readonly key: string;
  readonly member: boolean;
  readonly points: number;
  readonly open: boolean;
  /** The issue's status, on the events a close notes for its unfinished issues (burndown.ts). */
  readonly status?: Status;
}

/** What a sprint held over time: the burndown's data (burndown.ts). */
export interface SprintHistory {
  readonly events: ScopeEvent[];
  /** When the sprint was started by a sprint.started record; null for one created active or closed. */
  startedAt: string | null;
  /** When the sprint was closed: its history ends there. */
  closedAt: string | null;
}

export interface TrackerState {
  readonly projects: Map<string, Project>;
  /** The projects with a workflow of their own (workflows.ts); the others have the default. */
  readonly workflows: Map<string, Workflow>;
  /** Every status any workflow names, the default's first, with its one category (workflows.ts). */
  readonly statusCategories: Map<string, StatusCategory>;
  readonly sprints: Map<string, Sprint>;
  /** What each project defined of components, versions and custom fields (model/fields.ts); absent: nothing. */
  readonly projectFields: Map<string, ProjectFields>;
  /** Keys of the issues that carry fields (a due date, components...): what JQL looks at for them (jql/field-conditions.ts). */
  readonly fieldIssues: Set<string>;
  /** Each issue with its comment log and history, read on first use after a snapshot (issue-table.ts). */
  readonly issues: IssueTable;
  /** Issue keys per project, ascending by number. */
  readonly issueKeysByProject: Map<string, string[]>;
  /** The number the next created issue of a project gets. */
  readonly nextIssueNumber: Map<string, number>;
  /** When a sprint was created or an issue last entered or left it. */
  readonly sprintTouchedAt: Map<string, string>;
  /** The status each blocked issue was blocked from, when the journal saw that move: where it may go back to. */
  readonly blockedFrom: Map<string, Status>;
  /** Each issue's links, as that end reads them (see IssueLink); issues without links are absent. */
  readonly links: Map<string, readonly IssueLink[]>;
  /** Each issue's attachments in the order they were added; issues without any are absent. */
  readonly attachments: Map<string, readonly StoredAttachment[]>;
  /** Decoded bytes of every attachment: bounded by LIMITS.attachmentStoreBytesMax. */
  attachmentBytes: number;
  /** The keys of each epic's children, in the order they joined; epics without children are absent. */
  readonly children: Map<string, string[]>;
  /** When each done issue became done: the burndown's days. */
  readonly doneAt: Map<string, string>;
  /** What each sprint held over time (burndown.ts); sprints nothing ever entered are absent. */
  readonly sprintHistory: Map<string, SprintHistory>;
  /** How many issues each person is assigned: ranks assignee completions. */
  readonly assignmentCounts: Map<string, number>;
  /** Everyone seen anywhere: leads, reporters, assignees, comment authors, and the directory's people. */
  readonly people: Set<string>;
  /** The people directory by handle (person.saved records): names, e-mails, aliases (state/people.ts). */
  readonly directory: Map<string, Person>;
  /** Each display name, e-mail and alias, folded (person.ts foldName), with the handles going by it. */
  readonly personNames: Map<string, string[]>;
  /**
   * Lower-cased searchable text of an issue snapshot (its title and description) or of a
   * comment, filled on first search. Keyed by the frozen object, so a replaced issue's entry
   * goes with it and a comment is lower-cased once, not again on every change to its issue.
   */
  readonly searchText: WeakMap<object, string>;
  /** seq of the last applied record (0 before the first). */
  lastSeq: number;
}

export function createEmptyState(): TrackerState {
  return {
    projects: new Map(),
    workflows: new Map(),
    statusCategories: defaultStatusCategories(),
    sprints: new Map(),
    projectFields: new Map(),
    fieldIssues: new Set(),
    issues: new IssueTable(),
    issueKeysByProject: new Map(),
    nextIssueNumber: new Map(),
    sprintTouchedAt: new Map(),
    blockedFrom: new Map(),
    links: new Map(),
    attachments: new Map(),
    attachmentBytes: 0,
    children: new Map(),
    doneAt: new Map(),
    sprintHistory: new Map(),
    assignmentCounts: new Map(),
    people: new Set(),
    directory: new Map(),
    personNames: new Map(),
    searchText: new WeakMap(),
    lastSeq: 0,
  };
}

/** The default workflow's statuses with their categories: what every state knows before any workflow is set. */
export function defaultStatusCategories(): Map<string, StatusCategory> {
  return new Map(DEFAULT_WORKFLOW.statuses.map((status) => [status.id, status.category]));
}

/** How many comments the issue has now, without copying them out of its log. */
export function commentCount(state: TrackerState, key: string): number {
  return state.issues.entry(key)?.comments.length ?? 0;
}

export function sortedProjectKeys(state: TrackerState): string[] {
  return [...state.projects.keys()].sort();
}

/** The number in `PROJ-123`. Keys are validated before they get here. */
export function issueNumber(key: string): number {
  return Number(key.slice(key.lastIndexOf('-') + 1));
}

/** The number in `PROJ-S42`. */
export function sprintNumber(id: string): number {
  return Number(id.slice(id.lastIndexOf('-') + 2));
}

/** Sprints of one project (or all), ordered by project then number. */
export function sortedSprints(state: TrackerState, project?: string): Sprint[] {
  const sprints = [...state.sprints.values()].filter((s) => project === undefined || s.project === project);
  return sprints.sort((a, b) => compareStrings(a.project, b.project) || sprintNumber(a.id) - sprintNumber(b.id));
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function countAssignment(state: TrackerState, person: string | null, delta: 1 | -1): void {
  if (person === null) return;
  const count = (state.assignmentCounts.get(person) ?? 0) + delta;
  if (count > 0) state.assignmentCounts.set(person, count);
  else state.assignmentCounts.delete(person);
}

/** The link `from` → `to` of this type, as written from `from`; relates_to is found from either end. */
export function findLink(state: TrackerState, from: string, type: LinkType, to: string): IssueLink | undefined {
  return state.links.get(from)?.find((link) => link.type === type && link.key === to);
}

export function findAttachment(state: TrackerState, key: string, name: string): StoredAttachment | undefined {
  return state.attachments.get(key)?.find((attachment) => attachment.name === name);
}

/** Adds `child` to an epic's children, or takes it away. */
export function noteChild(state: TrackerState, epic: string | null, child: string, present: boolean): void {
  if (epic === null) return;
  const children = (state.children.get(epic) ?? []).filter((key) => key !== child);
  if (present) children.push(child);
  if (children.length === 0) state.children.delete(epic);
  else state.children.set(epic, children);
}
