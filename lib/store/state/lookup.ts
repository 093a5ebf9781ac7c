// Finding entities by key, with "not found" messages that offer the way out.
import { domainError } from '../model/errors.js';
import { LIMITS, SPRINT_ID_PATTERN, type Issue, type IssueType, type Project, type Sprint } from '../model/schema.js';
import { sortedProjectKeys, sortedSprints, type TrackerState } from './state.js';

export function requireIssue(state: TrackerState, key: string): Issue {
  const issue = state.issues.get(key);
  if (issue === undefined) {
    throw domainError('not_found', `Issue ${key} not found. Check the key, or search issues to find the right one.`);
  }
  return issue;
}

export function requireProject(state: TrackerState, key: string): Project {
  const project = state.projects.get(key);
  if (project === undefined) {
    throw domainError('not_found', `Project ${key} not found. Known projects: ${sortedProjectKeys(state).join(', ')}.`);
  }
  return project;
}

export function requireSprint(state: TrackerState, id: string): Sprint {
  const sprint = state.sprints.get(id);
  if (sprint === undefined) {
    const project = id.slice(0, id.lastIndexOf('-'));
    const known = state.projects.has(project) ? describeSprints(sortedSprints(state, project)) : 'none in that project';
    throw domainError('not_found', `Sprint ${id} not found. Sprints of ${project}: ${known}.`);
  }
  return sprint;
}

/**
 * A sprint named by its id (PROJ-S42, any case) or by its name ("Sprint 42", any case), as
 * users say it; a name is looked for in `project` when given (a name repeats across projects).
 * Only the id or a name that names exactly one sprint is taken; else the error lists the sprints.
 */
export function sprintIdOf(state: TrackerState, raw: string, project?: string): string {
  const trimmed = raw.trim();
  const id = trimmed.toUpperCase();
  if (id.length <= LIMITS.maxKeyLength && SPRINT_ID_PATTERN.test(id)) return id;
  const candidates = sortedSprints(state, project).filter((s) => s.name.toLowerCase() === trimmed.toLowerCase());
  if (candidates.length === 1) return (candidates[0] as Sprint).id;
  const known = describeSprints(candidates.length > 1 ? candidates : sortedSprints(state, project));
  const where = project === undefined ? '' : ` in ${project}`;
  const problem = candidates.length > 1 ? `names ${candidates.length} sprints` : `names no sprint${where}`;
  throw domainError('not_found', `"${trimmed.slice(0, 40)}" ${problem}; give the id. Sprints${where}: ${known}.`);
}

/** "PROJ-S41 (closed), PROJ-S42 (active)" */
export function describeSprints(sprints: readonly Sprint[]): string {
  return sprints.length === 0 ? 'none' : sprints.map((s) => `${s.id} (${s.state})`).join(', ');
}

/**
 * Why `parent` cannot hold `child`, or null. Jira's hierarchy: an epic holds issues, and any
 * other issue holds sub-tasks, which hold nothing. So an epic has no parent, a parent that is
 * not an epic must not itself be a sub-task, and an issue with sub-tasks does not become one.
 */
export function parentRefusal(state: TrackerState, child: { key: string | null; type: IssueType }, parent: Issue): string | null {
  if (child.type === 'epic') return `${child.key ?? 'An epic'} is an epic; epics have no parent.`;
  if (parent.key === child.key) return `${parent.key} cannot be its own parent.`;
  if (parent.type === 'epic') return null;
  const grandparent = parent.parent ? state.issues.get(parent.parent) : undefined;
  if (grandparent !== undefined && grandparent.type !== 'epic') {
    return `${parent.key} is a sub-task of ${grandparent.key}; a sub-task holds no sub-tasks.`;
  }
  if (child.key !== null && (state.children.get(child.key)?.length ?? 0) > 0) {
    return `${child.key} has sub-tasks of its own; it cannot become a sub-task of ${parent.key}.`;
  }
  return null;
}
