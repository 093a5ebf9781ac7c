// The ready view: "what should I do next?"
//
// An issue is ready when it is in the active sprint of its project, still open, not marked
// blocked, not an epic (an epic is done through its children), and every issue that blocks
// it is done. Ready issues come most urgent first (P0 before P3), then by project and number,
// so the answer is the same on every read of the same data.
import { parseProjectKey } from '../model/args.js';
import { blockersOf } from './links.js';
import { requireProject } from '../state/lookup.js';
import { PRIORITIES, type Issue } from '../model/schema.js';
import { compareStrings, issueNumber, sortedProjectKeys, type TrackerState } from '../state/state.js';
import { activeSprintOf } from './stats.js';
import { isDone, isOpen } from '../state/workflows.js';

/** The keys of the ready issues of one project (an unknown one is an error naming the known ones), or of all. */
export function readyKeys(state: TrackerState, project?: unknown): string[] {
  const projects = project === undefined ? sortedProjectKeys(state) : [requireProject(state, parseProjectKey(project)).key];
  const ready: Issue[] = [];
  for (const key of projects) {
    const sprint = activeSprintOf(state, key);
    if (sprint === undefined) continue;
    for (const issueKey of state.issueKeysByProject.get(key) ?? []) {
      const issue = state.issues.get(issueKey);
      if (issue !== undefined && issue.sprint === sprint.id && isReady(state, issue)) ready.push(issue);
    }
  }
  return ready.sort(byUrgency).map((issue) => issue.key);
}

export function isReady(state: TrackerState, issue: Issue): boolean {
  if (!isOpen(state, issue.status) || issue.status === 'blocked' || issue.type === 'epic') return false;
  return blockersOf(state, issue.key).every((blocker) => isDone(state, blocker.status));
}

const RANK = new Map(PRIORITIES.map((priority, index) => [priority, index]));

function byUrgency(a: Issue, b: Issue): number {
  return (
    (RANK.get(a.priority) ?? 0) - (RANK.get(b.priority) ?? 0) ||
    compareStrings(a.project, b.project) ||
    issueNumber(a.key) - issueNumber(b.key)
  );
}
