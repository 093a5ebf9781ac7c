// Each project's workflow as the state holds it, and the one category of every status.
//
// A status id means one category everywhere, as Jira's statuses do (a status is shared by the
// workflows that use it and has one category): a workflow that would give a known status
// another category is refused (domain/workflows.ts). So "open" and "statusCategory = Done" are
// sets of statuses across projects, and JQL and PostgreSQL answer them from the status index
// and column as they did with one workflow.
import { DEFAULT_WORKFLOW, findStatus, type StatusCategory, type Workflow } from '../model/workflow.js';
import type { Status } from '../model/schema.js';
import { quote } from '../model/args.js';
import { domainError } from '../model/errors.js';
import { defaultStatusCategories, type TrackerState } from './state.js';

export function workflowOf(state: TrackerState, project: string): Workflow {
  return state.workflows.get(project) ?? DEFAULT_WORKFLOW;
}

/** A status's category; one no workflow names (a journal written elsewhere) is to do. */
export function categoryOf(state: TrackerState, status: Status): StatusCategory {
  return state.statusCategories.get(status) ?? 'todo';
}

/** Done and closed are the same here: a status in the done category. */
export function isDone(state: TrackerState, status: Status): boolean {
  return categoryOf(state, status) === 'done';
}

export function isOpen(state: TrackerState, status: Status): boolean {
  return categoryOf(state, status) !== 'done';
}

/** Every status a workflow names, the default's first, then each project's new ones: the order ORDER BY status sorts in. */
export function knownStatuses(state: TrackerState): Status[] {
  return [...state.statusCategories.keys()];
}

export function statusesIn(state: TrackerState, category: StatusCategory): Status[] {
  return knownStatuses(state).filter((status) => categoryOf(state, status) === category);
}

export function openStatuses(state: TrackerState): Status[] {
  return knownStatuses(state).filter((status) => isOpen(state, status));
}

/** The statuses a name means in any workflow (JQL's `status = "Code Review"` across projects); none when none. */
export function statusesNamed(state: TrackerState, name: string): Status[] {
  const found = [DEFAULT_WORKFLOW, ...state.workflows.values()].map((workflow) => findStatus(workflow, name));
  return [...new Set(found.filter((status): status is Status => status !== undefined))];
}

/** The statuses a name means in any workflow, or a refusal listing them all (search's `status`, bulk_update_status). */
export function statusesKnownAs(state: TrackerState, name: unknown): Status[] {
  const found = typeof name === 'string' ? statusesNamed(state, name) : [];
  if (found.length > 0) return found;
  throw domainError('invalid_argument', `Unknown status ${quote(name)}. Use one of: ${knownStatuses(state).join(', ')}.`);
}

/** Sets a project's workflow and adds its statuses to the known ones (apply.ts, on project.workflow_set). */
export function noteWorkflow(state: TrackerState, project: string, workflow: Workflow): void {
  state.workflows.set(project, workflow);
  rebuildStatusCategories(state);
}

/**
 * The known statuses are the default's, then those of the workflows in use, projects in key
 * order (so a snapshot and a replay agree).
 */
export function rebuildStatusCategories(state: TrackerState): void {
  state.statusCategories.clear();
  for (const [id, category] of defaultStatusCategories()) state.statusCategories.set(id, category);
  const projects = [...state.workflows.keys()].sort();
  for (const project of projects) {
    for (const status of state.workflows.get(project)?.statuses ?? []) {
      if (!state.statusCategories.has(status.id)) state.statusCategories.set(status.id, status.category);
    }
  }
}
