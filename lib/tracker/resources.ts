// Resources: the nouns of the tracker, read by the host, with no side effects.
//
//   jira://projects                                    every project, with counts
//   jira://sprint/current                              the user's active sprint: live numbers (store.getCurrentSprint)
//   jira://project/{project_key}/sprint/current        a project's active sprint
//   jira://sprints{?project,state}                     every sprint (closed, active, future), with what it held
//   jira://issue/{key}                                 one issue (also listed, one resource per issue)
//   jira://project/{project_key}/stats                 counts by status and priority, points
//   jira://project/{project_key}/issues{?status,assignee,priority}   a query, as a resource
//   jira://sprint/{sprint_id}                          any sprint's stats
//   jira://sprint/{sprint_id}/burndown                 remaining points and issues per day (burndown.svg: as an image)
//   jira://search{?jql}                                the answer to a query (the search_issues tool's twin)
//   jira://issue/{key}/attachment/{name}               one attachment, a blob (attachments.ts)
//   jira://issue/{key}/history, /links                 who changed an issue, and its links (issue-views.ts)
//   jira://ready{?project}                             what to do next (issue-views.ts)
//
// Every read is computed from the store at that moment (dynamic resources). `readUri` is the
// single place a URI becomes content: resources/read, prompts that embed resources, and the
// change watcher that decides when a subscribed URI really changed all go through it.

import type { ResourceInfo } from '../../protocol/content.js';
import type { Completer, ResourceContents, ResourceDefinition, ResourceTemplateDefinition } from '../../protocol/resources.js';
import type { RequestContext } from '../../protocol/context.js';
import { RpcError, excerpt, invalidParams } from '../../protocol/errors.js';
import { PreEncoded } from '../../protocol/pre-encoded.js';
import { type Variables, compileUriTemplate } from '../../protocol/uri-template.js';
import { burndownSvg } from './burndown-svg.js';
import { jqlCompleter } from './jql-completion.js';
import { type IssueTexts, createIssueTexts, issueWithAttachments } from './issue-texts.js';
import { ATTACHMENT_TEMPLATE, attachmentTemplate } from './attachments.js';
import { READY_SHOWN_MAX, VIEW_TEMPLATES, readView } from './issue-views.js';
import {
  SPRINT_STATES,
  type Burndown,
  type Issue,
  type SprintStats,
  type ProjectFields,
  type TrackerStore,
  canonicalQuery,
  isDomainError,
  parseIssueKey,
  parsePriority,
  parseProjectKey,
  parseSprintId,
  parseStatus,
} from '../store/index.js';

export const JSON_MIME = 'application/json';
export const SVG_MIME = 'image/svg+xml';
export const PROJECTS_URI = 'jira://projects';
export const CURRENT_SPRINT_URI = 'jira://sprint/current';

export const TEMPLATES = {
  issue: compileUriTemplate('jira://issue/{key}'),
  projectStats: compileUriTemplate('jira://project/{project_key}/stats'),
  projectIssues: compileUriTemplate('jira://project/{project_key}/issues{?status,assignee,priority}'),
  projectSprint: compileUriTemplate('jira://project/{project_key}/sprint/current'),
  sprints: compileUriTemplate('jira://sprints{?project,state}'),
  sprint: compileUriTemplate('jira://sprint/{sprint_id}'),
  burndown: compileUriTemplate('jira://sprint/{sprint_id}/burndown'),
  burndownSvg: compileUriTemplate('jira://sprint/{sprint_id}/burndown.svg'),
  search: compileUriTemplate('jira://search{?jql}'),
  attachment: ATTACHMENT_TEMPLATE,
  ...VIEW_TEMPLATES,
};

/** Issues one read of jira://search shows; the total says how many match, search_issues pages through them. */
const SEARCH_SHOWN_MAX = 100;

export const issueUri = (key: string): string => TEMPLATES.issue.expand({ key });

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
function nothingOnDomainError<T>(read: () => T | null): T | null {
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

function readKnownUri(store: TrackerStore, uri: string): Record<string, unknown> | null {
  if (uri === PROJECTS_URI)
    return { projects: store.listProjects().map((p) => ({ ...p, ...countsOf(store, p.key), ...definedFields(store, p.key) })) };
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
  if ((vars = TEMPLATES.burndownSvg.match(uri))) return { svg: burndownSvg(store.getSprintBurndown(vars.sprint_id ?? '')) };
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

/**
 * Template variables as the store spells them (it trims and capitalises keys, "In Progress" is
 * in_progress), so every spelling of one issue, project, sprint or filter is one subscription.
 * A value the store would refuse stays as it is: it reads nothing in any spelling. The
 * assignee stays too: `none` means unassigned, but `None` is a person's handle.
 */
const CANONICAL: Record<string, (value: string) => string> = {
  key: parseIssueKey,
  project_key: parseProjectKey,
  sprint_id: parseSprintId,
  status: parseStatus,
  priority: parsePriority,
  jql: canonicalQuery,
  project: parseProjectKey,
};

function canonicalVariables(variables: Variables): Variables {
  const canonical: Variables = {};
  for (const [name, value] of Object.entries(variables)) {
    try {
      canonical[name] = CANONICAL[name]?.(value) ?? value;
    } catch {
      canonical[name] = value;
    }
  }
  return canonical;
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
function currentSprint(store: TrackerStore): { stats: SprintStats; burndown: Burndown['points'] } | null {
  const sprint = store.getCurrentSprint();
  if (sprint === null) return null;
  return { stats: store.getSprintStats(sprint.id), burndown: store.getSprintBurndown(sprint.id).points };
}

/** A sprint's numbers, and what it held over its life (committed, added, removed, done, left open). */
export function sprintWithHistory(store: TrackerStore, id: string): Record<string, unknown> {
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

/**
 * Performance (a first reading may skip it): jira://sprint/current's text, read by hosts again and again. Its numbers are the same
 * objects until a record is applied or the day turns (the store keeps them: derived.ts), but
 * `read_at`, its last field, is new on every read. So the text before `read_at` is printed
 * and encoded once per pair of those objects, and only `read_at` is added to it on each read:
 * the same text as JSON.stringify(value) of the whole value (a test holds it to that).
 */
function currentSprintTexts(store: TrackerStore): () => PreEncoded<string> | null {
  let kept: { stats: SprintStats; burndown: Burndown['points']; head: PreEncoded<string> } | undefined;
  return () => {
    const sprint = nothingOnDomainError(() => currentSprint(store));
    if (sprint === null) return null;
    if (kept?.stats !== sprint.stats || kept.burndown !== sprint.burndown) {
      const whole = JSON.stringify({ ...sprint.stats, burndown: sprint.burndown });
      kept = { ...sprint, head: PreEncoded.ofString(whole.slice(0, -'}'.length)) };
    }
    return PreEncoded.ofStringThen(kept.head, `,"read_at":${JSON.stringify(new Date().toISOString())}}`);
  };
}

const asContents = (uri: string, value: Record<string, unknown>): ResourceContents[] => [
  { uri, mimeType: JSON_MIME, text: JSON.stringify(value) },
];

/** The issue jira://issue/{key} names, or null when there is none (its text: issue-texts.ts). */
export function issueAt(store: TrackerStore, uri: string): Issue | null {
  return nothingOnDomainError(() => store.getIssue(TEMPLATES.issue.match(uri)?.key ?? ''));
}

/** P0 matters most to whoever reads the list: priority annotations run from 1.0 down. */
const PRIORITY_WEIGHT: Record<Issue['priority'], number> = { P0: 1, P1: 0.75, P2: 0.5, P3: 0.25 };

function issueInfo(issue: Issue): ResourceInfo {
  return {
    uri: issueUri(issue.key),
    name: issue.key,
    title: `${issue.key}: ${issue.title}`,
    description: `${issue.type}, ${issue.status}, ${issue.priority}, ${issue.assignee ? `assigned to ${issue.assignee}` : 'unassigned'}`,
    mimeType: JSON_MIME,
    annotations: { audience: ['user', 'assistant'], priority: PRIORITY_WEIGHT[issue.priority], lastModified: issue.updated_at },
  };
}

const suggestions = (completion: { values: readonly string[]; total: number }) => ({
  values: completion.values,
  total: completion.total,
});

export function completers(store: TrackerStore): Record<string, Completer> {
  return {
    // context.arguments (2025-06-18→): a chosen project narrows the keys and sprints offered.
    issueKey: (value, chosen) =>
      suggestions(store.completeIssueKeys(chosen.project_key && !value ? `${chosen.project_key}-` : value)),
    projectKey: (value) => suggestions(store.completeProjectKeys(value)),
    status: (value) => suggestions(store.completeStatuses(value)),
    priority: (value) => suggestions(store.completePriorities(value)),
    assignee: (value) => suggestions(store.completeAssignees(value)),
    sprintId: (value, chosen) => suggestions(store.completeSprintIds(value, chosen.project_key)),
    sprintState: (value) => {
      const values = SPRINT_STATES.filter((state) => state.startsWith(value.toLowerCase()));
      return { values, total: values.length };
    },
  };
}

export function trackerResources(
  store: TrackerStore,
  texts: IssueTexts = createIssueTexts(store),
): {
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
} {
  const complete = completers(store);
  const sprintText = currentSprintTexts(store);
  const readAs = (uri: string) => {
    const value = readUri(store, uri);
    return value === null ? null : asContents(uri, value);
  };
  const readSvg = (uri: string) => {
    const value = readUri(store, uri);
    return value === null ? null : [{ uri, mimeType: SVG_MIME, text: String(value.svg) }];
  };
  const readIssue = (uri: string): ResourceContents[] | null | Promise<ResourceContents[]> => {
    const issue = issueAt(store, uri);
    const text = issue === null ? null : texts.soon(issue); // a large issue not kept: printed in slices
    const contents = (text: PreEncoded<string>) => [{ uri, mimeType: JSON_MIME, text }];
    return text === null ? null : text instanceof Promise ? text.then(contents) : contents(text);
  };
  const readAttachment = (uri: string): ResourceContents[] | null => {
    const vars = TEMPLATES.attachment.match(uri);
    try {
      const file = store.getAttachment(vars?.key ?? '', vars?.name ?? '');
      return [{ uri, mimeType: file.mimeType, blob: file.content }];
    } catch (error) {
      if (isDomainError(error)) return null; // no such issue or attachment
      throw error;
    }
  };
  // A query that does not parse or names what does not exist (a project, in jira://ready) is
  // the reader's mistake, said with its column or the known names: not "not found", which would hide why.
  const readSearch = (uri: string) => {
    try {
      return asContents(uri, readKnownUri(store, uri) ?? {});
    } catch (error) {
      if (isDomainError(error)) throw invalidParams(error.message, { uri });
      throw error;
    }
  };
  // No silent empties (issue 15): a project, sprint or person that does not exist is named in
  // the error with the ones that do, under the era's resource-not-found code; a value the
  // store refuses (a status that is none) is the reader's mistake.
  const readExplained = (uri: string, context: RequestContext) => {
    try {
      const value = readKnownUri(store, uri);
      return value === null ? null : asContents(uri, value);
    } catch (error) {
      if (!isDomainError(error) || error.code === 'conflict') throw error;
      const data = { uri: excerpt(uri) };
      if (error.code !== 'not_found') throw invalidParams(error.message, data);
      throw new RpcError(context.rules.resourceNotFoundCode, `Resource not found: ${excerpt(uri)}. ${error.message}`, data);
    }
  };
  const fixed = (info: ResourceInfo): ResourceDefinition => ({ ...info, read: () => readAs(info.uri) ?? [] });
  const readCurrentSprint = (): ResourceContents[] => {
    const text = sprintText();
    return text === null ? [] : [{ uri: CURRENT_SPRINT_URI, mimeType: JSON_MIME, text }];
  };
  const templated = (
    definition: Omit<ResourceTemplateDefinition, 'read'>,
    read: (uri: string, context: RequestContext) => ResourceContents[] | null | Promise<ResourceContents[]> = readExplained,
  ): ResourceTemplateDefinition => ({
    ...definition,
    read: (_vars, uri, context) => read(uri, context),
    canonical: canonicalVariables,
  });

  return {
    resources: [
      fixed({
        uri: PROJECTS_URI,
        name: 'projects',
        title: 'Projects',
        mimeType: JSON_MIME,
        description: 'Every project with its lead, issue count and active sprint.',
        annotations: { audience: ['user', 'assistant'], priority: 0.5 },
      }),
      {
        uri: CURRENT_SPRINT_URI,
        name: 'current-sprint',
        title: 'Current sprint (live)',
        mimeType: JSON_MIME,
        description:
          'LIVE: your active sprint (the one holding your work; jira://sprints lists them all) as of this read: progress_pct (done story points / total), counts by status, ' +
          'open P0s, days_remaining and last_updated. It changes whenever issues change; re-read it for fresh numbers ' +
          'instead of relying on an earlier copy.',
        annotations: { audience: ['user', 'assistant'], priority: 1 },
        read: readCurrentSprint,
      },
    ],
    templates: [
      templated(
        {
          uriTemplate: TEMPLATES.issue.template,
          name: 'issue',
          title: 'Issue',
          mimeType: JSON_MIME,
          description: 'One issue with its comments, e.g. jira://issue/PROJ-101. Same data as the get_issue tool.',
          complete: { key: complete.issueKey! },
          list: {
            count: () => store.listIssues({ limit: 1 }).total,
            slice: (offset, limit) => store.listIssues({ offset, limit: Math.min(limit, 100) }).items.map(issueInfo),
          },
        },
        readIssue,
      ),
      templated({
        uriTemplate: TEMPLATES.projectStats.template,
        name: 'project-stats',
        title: 'Project statistics (live)',
        mimeType: JSON_MIME,
        description: 'LIVE: counts by status and priority, story points and open P0s for a project, computed on every read.',
        complete: { project_key: complete.projectKey! },
      }),
      templated({
        uriTemplate: TEMPLATES.projectIssues.template,
        name: 'project-issues',
        title: 'Issues of a project, filtered',
        mimeType: JSON_MIME,
        description:
          'Up to 100 issues of a project, optionally filtered by status, assignee (a handle, or "none" for unassigned) ' +
          'and priority, e.g. jira://project/PROJ/issues?status=in_progress&priority=P0. For more, use the search_issues tool.',
        complete: {
          project_key: complete.projectKey!,
          status: complete.status!,
          assignee: complete.assignee!,
          priority: complete.priority!,
        },
      }),
      templated({
        uriTemplate: TEMPLATES.projectSprint.template,
        name: 'project-current-sprint',
        title: "A project's current sprint (live)",
        mimeType: JSON_MIME,
        description: "LIVE: a project's active sprint, as jira://sprint/current, e.g. jira://project/WEB/sprint/current.",
        complete: { project_key: complete.projectKey! },
      }),
      templated({
        uriTemplate: TEMPLATES.sprints.template,
        name: 'sprints',
        title: 'Sprints',
        mimeType: JSON_MIME,
        description:
          'Every sprint (closed, active, future) with its dates and points done and open, e.g. ' +
          'jira://sprints?project=PROJ&state=closed; jira://sprints for all, with the current one.',
        complete: { project: complete.projectKey!, state: complete.sprintState! },
      }),
      templated({
        uriTemplate: TEMPLATES.sprint.template,
        name: 'sprint',
        title: 'Sprint statistics (live)',
        mimeType: JSON_MIME,
        description:
          'LIVE: progress and counts of any sprint, e.g. jira://sprint/PROJ-S42, and its history: committed, added, ' +
          'removed, done and left open (a closed sprint: as it closed).',
        complete: { sprint_id: complete.sprintId! },
      }),
      templated({
        uriTemplate: TEMPLATES.burndown.template,
        name: 'sprint-burndown',
        title: 'Sprint burndown (live)',
        mimeType: JSON_MIME,
        description:
          'LIVE: remaining story points and issues at the end of each day of a sprint so far, with its scope and the ideal ' +
          'line, e.g. jira://sprint/PROJ-S42/burndown. The summarize_sprint tool returns the same points.',
        complete: { sprint_id: complete.sprintId! },
      }),
      templated(
        {
          uriTemplate: TEMPLATES.burndownSvg.template,
          name: 'sprint-burndown-chart',
          title: 'Sprint burndown chart (live)',
          mimeType: SVG_MIME,
          description: 'LIVE: the burndown as an SVG image, e.g. jira://sprint/PROJ-S42/burndown.svg.',
          complete: { sprint_id: complete.sprintId! },
        },
        readSvg,
      ),
      templated(
        {
          uriTemplate: TEMPLATES.search.template,
          name: 'search',
          title: 'Search (JQL)',
          mimeType: JSON_MIME,
          description:
            `Up to ${SEARCH_SHOWN_MAX} issues matching a JQL query, e.g. jira://search?jql=assignee%20%3D%20currentUser()%20ORDER%20BY%20priority. ` +
            'The search_issues tool takes the same query and pages through all of them.',
          complete: { jql: jqlCompleter(store) },
        },
        readSearch,
      ),
      { ...attachmentTemplate(store, complete.issueKey!, readAttachment), canonical: canonicalVariables },
      templated(
        {
          uriTemplate: TEMPLATES.ready.template,
          name: 'ready',
          title: 'Ready to start (live)',
          mimeType: JSON_MIME,
          description:
            `LIVE: what to do next: up to ${READY_SHOWN_MAX} open issues of the active sprints whose blockers are all done, ` +
            'most urgent first, with the total; jira://ready for every project. search_issues with ready: true answers the same.',
          complete: { project: complete.projectKey! },
        },
        readSearch,
      ),
      templated({
        uriTemplate: TEMPLATES.history.template,
        name: 'issue-history',
        title: 'Issue history',
        mimeType: JSON_MIME,
        description:
          'Who changed what on an issue, and when: the most recent 100 changes, newest first, with the total. ' +
          'get_issue with include: ["history"] answers the same.',
        complete: { key: complete.issueKey! },
      }),
      templated({
        uriTemplate: TEMPLATES.links.template,
        name: 'issue-links',
        title: 'Issue links (live)',
        mimeType: JSON_MIME,
        description:
          "LIVE: an issue's links both ways (blocks, is blocked by, relates to, duplicates, epic and children), each with " +
          'the linked issue\'s status, and whether the issue is unblocked. get_issue with include: ["links"] answers the same.',
        complete: { key: complete.issueKey! },
      }),
    ],
  };
}
