// Setting a project's workflow: a workflow as people write it, read into the model, and the
// change planned against the issues the project holds.
//
// A workflow as written (a JSON file for `mcp-tracker workflow`, docs/workflows.md) names its
// statuses and resolutions as people say them ("Code Review", "Won't Do"); each gets an id
// (code_review, wont_do) unless it gives one. Moves name statuses by id or name.
//
// A change never orphans an issue: when issues sit in a status the new workflow drops, the
// change is refused with the list, unless a mapping says where each such status goes; the
// issues then move in the same record (project.workflow_set), all or none. A mapping keeps an
// issue open or done: it renames where the issue sits, it does not close or reopen it (that
// is a move with a resolution, or a reopening, through update_issue).
import { quote } from '../model/args.js';
import { domainError } from '../model/errors.js';
import { isPlainObject } from '../model/record-check.js';
import type { RecordDraft } from '../model/record-schema.js';
import type { Status } from '../model/schema.js';
import {
  DEFAULT_WORKFLOW,
  categoryWord,
  findStatus,
  idOfName,
  squeeze,
  workflowProblem,
  workflowStatus,
  type StatusCategory,
  type Workflow,
  type WorkflowStatus,
} from '../model/workflow.js';
import { requireProject } from '../state/lookup.js';
import type { TrackerState } from '../state/state.js';
import { workflowOf } from '../state/workflows.js';

/** Jira's names of the three categories, and ours. */
const CATEGORY_WORDS: ReadonlyMap<string, StatusCategory> = new Map<string, StatusCategory>([
  ['todo', 'todo'],
  ['new', 'todo'],
  ['inprogress', 'inprogress'],
  ['indeterminate', 'inprogress'],
  ['done', 'done'],
  ['complete', 'done'],
]);

/** A workflow as people write it: see the top of this file. Refused with the reason when it is not one. */
export function parseWorkflow(input: unknown): Workflow {
  if (!isPlainObject(input)) throw invalid('a workflow is a JSON object with statuses, transitions and resolutions');
  const statuses = parseStatuses(input['statuses']);
  const named: Workflow = { statuses, transitions: {}, resolutions: [], close_from_any_open: false };
  const workflow: Workflow = {
    statuses,
    transitions: parseTransitions(input['transitions'], named),
    resolutions: parseResolutions(input['resolutions']),
    close_from_any_open: input['close_from_any_open'] === undefined ? true : parseFlag(input['close_from_any_open']),
  };
  const problem = workflowProblem(workflow);
  if (problem !== null) throw invalid(problem);
  return workflow;
}

function parseStatuses(value: unknown): WorkflowStatus[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid('statuses: a list of {"name", "category"} (and an "id" if you like)');
  return value.map((item, index) => {
    if (!isPlainObject(item) || typeof item['name'] !== 'string')
      throw invalid(`statuses[${index}]: expected {"name": "Code Review", "category": "in progress"}`);
    const name = item['name'].trim();
    // "To Do", "In Progress", "Done": the default's statuses keep their ids, so their issues stay where they are.
    const id = item['id'] === undefined ? (findStatus(DEFAULT_WORKFLOW, name) ?? idOfName(name)) : item['id'];
    const category = typeof item['category'] === 'string' ? CATEGORY_WORDS.get(squeeze(item['category'])) : undefined;
    if (category === undefined)
      throw invalid(`statuses[${index}] (${name}): category ${quote(item['category'])}; use "to do", "in progress" or "done"`);
    if (typeof id !== 'string') throw invalid(`statuses[${index}] (${name}): the id is a string`);
    return { id, name, category };
  });
}

function parseTransitions(value: unknown, named: Workflow): Record<Status, Status[]> {
  if (!isPlainObject(value)) throw invalid('transitions: an object from a status to the statuses it may move to');
  const transitions: Record<Status, Status[]> = {};
  for (const [from, moves] of Object.entries(value)) {
    if (!Array.isArray(moves)) throw invalid(`transitions of ${quote(from)}: a list of statuses`);
    const source = statusNamed(named, from, 'transitions');
    transitions[source] = [...new Set(moves.map((to) => statusNamed(named, to, `transitions of ${from}`)))];
  }
  return transitions;
}

function parseResolutions(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw invalid('resolutions: a list of names ("Done", "Duplicate", "Won\'t Do")');
  return (value as string[]).map(idOfName);
}

function parseFlag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid('close_from_any_open: true or false');
  return value;
}

function statusNamed(workflow: Workflow, value: unknown, where: string): Status {
  const status = typeof value === 'string' ? findStatus(workflow, value) : undefined;
  if (status === undefined) {
    const known = workflow.statuses.map((s) => s.name).join(', ');
    throw invalid(`${where}: ${quote(value)} is not a status of the workflow (${known})`);
  }
  return status;
}

function invalid(reason: string): Error {
  return domainError('invalid_argument', `Not a workflow: ${reason}.`);
}

/** `qa=in_review` pairs, or an object, by id or name: from a status the workflow drops to one it keeps. */
export type WorkflowMappingInput = Readonly<Record<string, string>>;

/**
 * The record that sets the workflow, or null when it is the project's already. Refused when a
 * status would change category under issues that sit in it, when a status would have another
 * category than it has in another workflow, or when issues sit in a dropped status the mapping
 * does not place.
 */
export function planSetWorkflow(
  state: TrackerState,
  project: string,
  workflow: Workflow,
  mappingInput: WorkflowMappingInput = {},
): RecordDraft | null {
  requireProject(state, project);
  const current = workflowOf(state, project);
  requireOneCategoryEach(state, project, workflow);
  const held = statusesHeld(state, project);
  requireCategoriesKept(project, current, workflow, held);
  const mapping = parseMapping(project, current, workflow, mappingInput);
  const dropped = [...held].filter(([status]) => workflowStatus(workflow, status) === undefined);
  const unplaced = dropped.filter(([status]) => !mapping.has(status));
  if (unplaced.length > 0) {
    const list = unplaced.map(([status, keys]) => `${status} (${keys.length}: ${listKeys(keys)})`).join('; ');
    const example = unplaced.map(([status]) => `--map ${status}=${workflow.statuses[0]?.id ?? 'todo'}`).join(' ');
    throw domainError(
      'conflict',
      `${project}'s workflow was not changed: issues sit in statuses the new workflow drops: ${list}. ` +
        `Say where each goes (${example}), or move them first.`,
    );
  }
  const used = Object.fromEntries(dropped.map(([status]) => [status, mapping.get(status) as Status]));
  if (dropped.length === 0 && JSON.stringify(workflow) === JSON.stringify(current)) return null;
  return dropped.length === 0
    ? { type: 'project.workflow_set', project, workflow }
    : { type: 'project.workflow_set', project, workflow, mapping: used };
}

/** A status has one category everywhere (state/workflows.ts): the default's and every other project's. */
function requireOneCategoryEach(state: TrackerState, project: string, workflow: Workflow): void {
  const others = [DEFAULT_WORKFLOW, ...[...state.workflows].filter(([key]) => key !== project).map(([, w]) => w)];
  for (const status of workflow.statuses) {
    for (const other of others) {
      const there = workflowStatus(other, status.id);
      if (there !== undefined && there.category !== status.category) {
        const owner = other === DEFAULT_WORKFLOW ? 'the default workflow' : 'another project';
        throw domainError(
          'invalid_argument',
          `Status ${status.id} is in the ${categoryWord(there.category)} category in ${owner}; a status has one category everywhere ` +
            `(JQL's statusCategory reads it), so give "${status.name}" another id.`,
        );
      }
    }
  }
}

/** A kept status whose category changes under its issues would close or reopen them unseen. */
function requireCategoriesKept(project: string, current: Workflow, workflow: Workflow, held: Map<Status, string[]>): void {
  for (const [status, keys] of held) {
    const before = workflowStatus(current, status)?.category;
    const after = workflowStatus(workflow, status)?.category;
    if (before !== undefined && after !== undefined && before !== after) {
      throw domainError(
        'conflict',
        `${project}'s workflow was not changed: ${status} holds ${keys.length} issues (${listKeys(keys)}) and would go from ` +
          `${categoryWord(before)} to ${categoryWord(after)}; a change of workflow does not close or reopen issues. Move them first.`,
      );
    }
  }
}

function parseMapping(project: string, current: Workflow, workflow: Workflow, input: WorkflowMappingInput): Map<Status, Status> {
  const mapping = new Map<Status, Status>();
  for (const [fromName, toName] of Object.entries(input)) {
    const from = findStatus(current, fromName) ?? fromName;
    const to = statusNamed(workflow, toName, `the mapping of ${fromName}`);
    if (workflowStatus(workflow, from) !== undefined)
      throw domainError('invalid_argument', `The mapping moves issues out of statuses the new workflow drops; it keeps ${from}.`);
    const before = workflowStatus(current, from)?.category ?? 'todo';
    const after = workflowStatus(workflow, to)?.category ?? 'todo';
    if ((before === 'done') !== (after === 'done'))
      throw domainError(
        'invalid_argument',
        `${project}: ${from} (${categoryWord(before)}) cannot map to ${to} (${categoryWord(after)}): a mapping keeps an issue open or done.`,
      );
    mapping.set(from, to);
  }
  return mapping;
}

/** The statuses the project's issues sit in, each with its issues' keys. */
function statusesHeld(state: TrackerState, project: string): Map<Status, string[]> {
  const held = new Map<Status, string[]>();
  for (const key of state.issueKeysByProject.get(project) ?? []) {
    const status = state.issues.get(key)?.status;
    if (status === undefined) continue;
    const keys = held.get(status) ?? [];
    keys.push(key);
    held.set(status, keys);
  }
  return held;
}

function listKeys(keys: readonly string[]): string {
  return keys.length <= 10 ? keys.join(', ') : `${keys.slice(0, 10).join(', ')} and ${keys.length - 10} more`;
}
