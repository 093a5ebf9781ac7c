// What a resource URI holds now: `readUri` is the single place a URI becomes content.
// resources/read (resources.ts, resource-contents.ts), prompts that embed resources, and the
// change watcher that decides when a subscribed URI really changed (resource-watch.ts) all go
// through it. Every read is computed from the store at that moment (dynamic resources).

import { excerpt, invalidParams } from '../../protocol/errors.js';
import { loadBurndownSvg } from './burndown-svg-loader.js';
import { issueWithAttachments } from './issue-texts.js';
import { readView } from './issue-views.js';
import { CURRENT_SPRINT_URI, PEOPLE_URI, PROJECTS_URI, TEMPLATES, issueUri } from './resource-uris.js';
import {
  PEOPLE_SHOWN_MAX,
  SPRINT_STATES,
  type Burndown,
  type Issue,
  type SprintStats,
  type ProjectFields,
  type TrackerStore,
  isDomainError,
} from '../store/index.js';

/** Issues one read of jira://search shows; the total says how many match, search_issues pages through them. */
export const SEARCH_SHOWN_MAX = 100;

/** The project `jira://sprint/current` describes: the first by key (PROJ in the demo data). */
export function defaultProject(store: TrackerStore): string | undefined {
  return store.listProjects()[0]?.key;
}

/** The project of the user's current sprint (store.getCurrentSprint), else the first project. */
export function currentProject(store: TrackerStore): string | undefined {
  return store.getCurrentSprint()?.project ?? defaultProject(store);
}

/**
 * The content of a URI now, as a JSON value, or null when nothing exists there.
 * `read_at` is the one field that changes without the data changing; the change watcher
 * leaves it out when it compares reads.
 */
export function readUri(store: TrackerStore, uri: string): Record<string, unknown> | null {
  return nothingOnDomainError(() => readKnownUri(store, uri));
}

/** What `read` returns, or null when the store says there is nothing there (an unknown key, a bad filter). */
export function nothingOnDomainError<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch (error) {
    if (isDomainError(error) && error.code !== 'conflict') return null;
    throw error;
  }
}

/** The components, versions and custom fields a project defined (define_fields), only when it defined any. */
function definedFields(store: TrackerStore, project: string): { fields?: ProjectFields } {
  const fields = store.getProjectFields(project);
  const defined = fields.components.length + fields.versions.length + fields.custom.length > 0;
  return defined ? { fields } : {};
}

/** readUri's work, the store's domain errors let through: resources/read explains them (resource-contents.ts). */
export function readKnownUri(store: TrackerStore, uri: string): Record<string, unknown> | null {
  if (uri === PROJECTS_URI)
    return { projects: store.listProjects().map((p) => ({ ...p, ...countsOf(store, p.key), ...definedFields(store, p.key) })) };
  if (uri === PEOPLE_URI) return { ...store.listPeople(), shown_max: PEOPLE_SHOWN_MAX };
  if (uri === CURRENT_SPRINT_URI) {
    const sprint = currentSprint(store);
    return sprint === null ? null : { ...sprint.stats, burndown: sprint.burndown, read_at: new Date().toISOString() };
  }
  let vars = TEMPLATES.projectSprint.match(uri);
  if (vars) {
    const stats = store.getCurrentSprintStats(vars.project_key ?? '');
    return { ...stats, burndown: store.getSprintBurndown(stats.sprint).points, read_at: new Date().toISOString() };
  }
  if ((vars = TEMPLATES.sprints.match(uri))) return sprintList(store, vars.project, vars.state);
  const view = readView(store, uri, issueSummary);
  if (view !== undefined) return view;
  vars = TEMPLATES.issue.match(uri);
  if (vars) return issueWithAttachments(store, store.getIssue(vars.key ?? ''));
  // An attachment's bytes are read by its template; here, what it is (the watch compares this).
  if ((vars = TEMPLATES.attachment.match(uri))) {
    const { content: _bytes, ...info } = store.getAttachment(vars.key ?? '', vars.name ?? '');
    return { attachment: info };
  }
  if ((vars = TEMPLATES.projectStats.match(uri)))
    return { ...store.getProjectStats(vars.project_key ?? ''), read_at: new Date().toISOString() };
  if ((vars = TEMPLATES.sprint.match(uri)))
    return { ...sprintWithHistory(store, vars.sprint_id ?? ''), read_at: new Date().toISOString() };
  if ((vars = TEMPLATES.burndown.match(uri))) return { ...store.getSprintBurndown(vars.sprint_id ?? '') };
  if ((vars = TEMPLATES.burndownSvg.match(uri))) return { svg: loadBurndownSvg()(store.getSprintBurndown(vars.sprint_id ?? '')) };
  if ((vars = TEMPLATES.search.match(uri))) {
    const jql = vars.jql ?? '';
    const page = store.searchIssues({ query: jql, limit: SEARCH_SHOWN_MAX });
    return { jql, total: page.total, shown: page.items.length, issues: page.items.map(issueSummary) };
  }
  if ((vars = TEMPLATES.projectIssues.match(uri))) {
    const query = {
      project: vars.project_key,
      status: vars.status,
      priority: vars.priority,
      assignee: assigneeFilter(vars.assignee),
      limit: 100,
    };
    const page = store.searchIssues(query);
    return { filters: { ...vars }, total: page.total, shown: page.items.length, issues: page.items.map(issueSummary) };
  }
  return null;
}

/** `assignee=none` asks for unassigned issues (a query string cannot carry null). */
const assigneeFilter = (value: string | undefined): string | null | undefined => (value === 'none' ? null : value);

function countsOf(store: TrackerStore, project: string): { issue_count: number; active_sprint: string | null } {
  const stats = store.getProjectStats(project);
  return { issue_count: stats.issue_count, active_sprint: stats.active_sprint };
}

export function issueSummary(issue: Issue): Record<string, unknown> {
  const { key, title, status, priority, assignee, story_points, sprint, type } = issue;
  return { key, title, type, status, priority, assignee, story_points, sprint, uri: issueUri(key) };
}

/** The active sprint "current" means for who reads: its numbers and burndown as the store keeps them. */
export function currentSprint(store: TrackerStore): { stats: SprintStats; burndown: Burndown['points'] } | null {
  const sprint = store.getCurrentSprint();
  if (sprint === null) return null;
  return { stats: store.getSprintStats(sprint.id), burndown: store.getSprintBurndown(sprint.id).points };
}

/** A sprint's numbers, and what it held over its life (committed, added, removed, done, left open); `sprint`: its id or name. */
export function sprintWithHistory(store: TrackerStore, sprint: string): Record<string, unknown> {
  const { id } = store.getSprint(sprint);
  const { sprint: _id, state: _state, ...history } = store.getSprintReport(id);
  return { ...store.getSprintStats(id), history };
}

/** Every sprint of one project (or all), optionally in one state, with its points done and left. */
export function sprintList(
  store: TrackerStore,
  project: string | undefined,
  state: string | undefined,
): { sprints: Record<string, unknown>[]; current: string | null } {
  const wanted = state === undefined ? undefined : SPRINT_STATES.find((s) => s === state.trim().toLowerCase());
  if (state !== undefined && wanted === undefined)
    throw invalidParams(`state is one of ${SPRINT_STATES.join(', ')}, not ${excerpt(state)}`);
  const sprints = store.listSprints({ project, state: wanted }).map((sprint) => {
    const report = store.getSprintReport(sprint.id);
    const { id, name, state: sprintState, start_date, end_date } = sprint;
    return {
      id,
      name,
      state: sprintState,
      start_date,
      end_date,
      done_points: report.done.points,
      open_points: report.open.points,
    };
  });
  return { sprints, current: store.getCurrentSprint()?.id ?? null };
}

/** The issue jira://issue/{key} names, or null when there is none (its text: issue-texts.ts). */
export function issueAt(store: TrackerStore, uri: string): Issue | null {
  return nothingOnDomainError(() => store.getIssue(TEMPLATES.issue.match(uri)?.key ?? ''));
}

/** The same, with a large issue still in the snapshot file read a piece a turn (store.getIssueInTurns). */
export function issueInTurnsAt(store: TrackerStore, uri: string): Issue | Promise<Issue> | null {
  return nothingOnDomainError(() => store.getIssueInTurns(TEMPLATES.issue.match(uri)?.key ?? ''));
}
