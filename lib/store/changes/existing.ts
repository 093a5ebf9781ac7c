// What a record names, found in the state, or a plain Error saying it is not there: the journal
// is then inconsistent (check-record.ts and apply.ts, which both look records' names up).
import type { Comment, Issue, Project, Sprint } from '../model/schema.js';
import type { TrackerState } from '../state/state.js';
import { parentRefusal } from '../state/lookup.js';

export function existingSprint(state: TrackerState, id: string): Sprint {
  const sprint = state.sprints.get(id);
  if (sprint === undefined) throw new Error(`sprint ${id} does not exist`);
  return sprint;
}

export function existingIssue(state: TrackerState, key: string): Issue {
  const issue = state.issues.get(key);
  if (issue === undefined) throw new Error(`issue ${key} does not exist`);
  return issue;
}

export function existingProject(state: TrackerState, key: string): Project {
  const project = state.projects.get(key);
  if (project === undefined) throw new Error(`project ${key} does not exist`);
  return project;
}

/** The parent exists and may hold the child (lookup.ts parentRefusal: an epic, or an issue that is not a sub-task). */
export function existingParent(state: TrackerState, child: string | Issue, key: string): void {
  const parent = existingIssue(state, key);
  const issue = typeof child === 'string' ? existingIssue(state, child) : child;
  const refusal = parentRefusal(state, { key: issue.key, type: issue.type }, parent);
  if (refusal !== null) throw new Error(`parent ${key}: ${refusal}`);
}

export function sprintOfProject(state: TrackerState, id: string, project: string): Sprint {
  const sprint = state.sprints.get(id);
  if (sprint === undefined) throw new Error(`sprint ${id} does not exist`);
  if (sprint.project !== project) throw new Error(`sprint ${id} belongs to ${sprint.project}, not ${project}`);
  return sprint;
}

export function commentLogOf(state: TrackerState, key: string): Comment[] {
  const log = state.issues.entry(key)?.comments;
  if (log === undefined) throw new Error(`issue ${key} has no comment log`);
  return log;
}
