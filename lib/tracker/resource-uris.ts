// The URIs of the tracker's resources: the fixed ones, the templates (resources.ts lists them
// all), and the one spelling of each template variable, so every spelling of a URI is one
// subscription.

import { type Variables, compileUriTemplate } from '../../protocol/uri-template.js';
import { ATTACHMENT_TEMPLATE } from './attachments.js';
import { VIEW_TEMPLATES } from './issue-views.js';
import {
  type TrackerStore,
  canonicalQuery,
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
export const PEOPLE_URI = 'jira://people';

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

export const issueUri = (key: string): string => TEMPLATES.issue.expand({ key });

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

/** CANONICAL, and a sprint's name ("Sprint 42") spelled as its id: one subscription either way. */
export function canonicalVariables(store: TrackerStore): (variables: Variables) => Variables {
  const sprintId = (value: string): string => {
    try {
      return parseSprintId(value);
    } catch {
      return store.getSprint(value).id;
    }
  };
  const spellings: Record<string, (value: string) => string> = { ...CANONICAL, sprint_id: sprintId };
  return (variables) => {
    const canonical: Variables = {};
    for (const [name, value] of Object.entries(variables)) {
      try {
        canonical[name] = spellings[name]?.(value) ?? value;
      } catch {
        canonical[name] = value;
      }
    }
    return canonical;
  };
}
