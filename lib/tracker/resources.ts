// Resources: the nouns of the tracker, read by the host, with no side effects.
//
//   jira://projects                                    every project, with counts
//   jira://people                                      the people directory: handles, names, e-mails, aliases
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
// This file lists them as the engine serves them. What a URI holds: resource-reads.ts (readUri);
// how a read becomes contents or an error: resource-contents.ts; the URIs and their spellings:
// resource-uris.ts; completion of their variables: completers.ts.

import type { ResourceInfo } from '../../protocol/content.js';
import type { ResourceContents, ResourceDefinition, ResourceTemplateDefinition } from '../../protocol/resources.js';
import type { RequestContext } from '../../protocol/context.js';
import { jqlCompleter } from './jql-completion.js';
import { type IssueTexts, createIssueTexts } from './issue-texts.js';
import { attachmentTemplate } from './attachments.js';
import { READY_SHOWN_MAX } from './issue-views.js';
import { completers } from './completers.js';
import { resourceReaders } from './resource-contents.js';
import { SEARCH_SHOWN_MAX } from './resource-reads.js';
import {
  CURRENT_SPRINT_URI,
  JSON_MIME,
  PEOPLE_URI,
  PROJECTS_URI,
  SVG_MIME,
  TEMPLATES,
  canonicalVariables,
  issueUri,
} from './resource-uris.js';
import { PEOPLE_SHOWN_MAX, type Issue, type TrackerStore } from '../store/index.js';

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

export function trackerResources(
  store: TrackerStore,
  texts: IssueTexts = createIssueTexts(store),
): {
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
} {
  const complete = completers(store);
  const canonical = canonicalVariables(store);
  const { readAs, readSvg, readIssue, readAttachment, readSearch, readExplained, readCurrentSprint } = resourceReaders(
    store,
    texts,
  );
  const fixed = (info: ResourceInfo): ResourceDefinition => ({ ...info, read: () => readAs(info.uri) ?? [] });
  const templated = (
    definition: Omit<ResourceTemplateDefinition, 'read'>,
    read: (uri: string, context: RequestContext) => ResourceContents[] | null | Promise<ResourceContents[]> = readExplained,
  ): ResourceTemplateDefinition => ({
    ...definition,
    read: (_vars, uri, context) => read(uri, context),
    canonical,
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
      fixed({
        uri: PEOPLE_URI,
        name: 'people',
        title: 'People',
        mimeType: JSON_MIME,
        description:
          `The people directory: each handle with its display name, e-mail, aliases and assigned issues (the first ${PEOPLE_SHOWN_MAX} by handle, and the total). ` +
          'Tools and JQL take any of these names for a person.',
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
          'LIVE: progress and counts of any sprint, e.g. jira://sprint/PROJ-S42 (or its name: jira://sprint/Sprint%2042), and its history: committed, added, ' +
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
      { ...attachmentTemplate(store, complete.issueKey!, readAttachment), canonical },
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
