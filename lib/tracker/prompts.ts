// Prompts: conversations the user starts from a menu, with arguments.
//
// Each is several user/assistant turns, and embeds the live resource it talks about as an
// embedded resource (`type: "resource"`, with its MIME type, A-13) read at the moment the
// prompt is fetched, rather than a copy pasted into the text.

import type { PromptDefinition, PromptMessage } from '../../protocol/prompts.js';
import { excerpt, invalidParams } from '../../protocol/errors.js';
import type { TrackerStore } from '../store/index.js';
import { sprintPrompts } from './prompts-sprints.js';
import { completers } from './completers.js';
import { currentProject, readUri } from './resource-reads.js';
import { CURRENT_SPRINT_URI, JSON_MIME, TEMPLATES, issueUri } from './resource-uris.js';
import { bugReportPrompt } from './prompt-bug-report.js';

const say = (role: PromptMessage['role'], text: string): PromptMessage => ({ role, content: { type: 'text', text } });

export function trackerPrompts(store: TrackerStore): PromptDefinition[] {
  const complete = completers(store);

  /** A resource as a prompt message; an argument that names nothing is the caller's mistake (-32602). */
  function embed(uri: string, argument: string): PromptMessage {
    const value = readUri(store, uri);
    if (value === null)
      throw invalidParams(`Nothing found for ${argument}: ${excerpt(uri)} does not exist`, { uri: excerpt(uri) });
    return {
      role: 'user',
      content: { type: 'resource', resource: { uri, mimeType: JSON_MIME, text: JSON.stringify(value) } },
    };
  }

  /** A project's active sprint, live, or a line saying it has none (and where its sprints are). */
  function projectSprint(project: string): PromptMessage {
    if (store.listSprints({ project, state: 'active' }).length === 0)
      return say('user', `${project} has no active sprint now; its sprints: jira://sprints?project=${project}.`);
    return embed(TEMPLATES.projectSprint.expand({ project_key: project }), 'the current sprint');
  }

  /** The active sprints of these projects (each once), or the user's current sprint when none is. */
  function sprintsOf(projects: readonly string[]): PromptMessage[] {
    const active = [...new Set(projects)].filter((p) => store.listSprints({ project: p, state: 'active' }).length > 0);
    if (active.length === 0) return [embed(CURRENT_SPRINT_URI, 'the current sprint')];
    return active.sort().map(projectSprint);
  }

  const triage: PromptDefinition = {
    name: 'triage_issue',
    title: 'Triage an issue',
    description: 'Decide priority, owner and sprint for one issue, with the issue and the current sprint in front of you.',
    arguments: [
      {
        name: 'issue_key',
        title: 'Issue',
        description: 'The issue to triage, e.g. PROJ-104.',
        required: true,
        complete: complete.issueKey,
      },
    ],
    get(args) {
      const key = (args.issue_key ?? '').trim().toUpperCase();
      const issue = embed(issueUri(key), 'issue_key');
      const project = key.slice(0, key.lastIndexOf('-'));
      return {
        description: `Triage ${key}`,
        messages: [
          say('user', `Please triage ${key}. Here is the issue as it stands now:`),
          issue,
          say(
            'assistant',
            `I have read ${key}. Before I suggest a priority and an owner, I need to know how full ${project}'s current sprint is.`,
          ),
          say('user', `Here is ${project}'s current sprint, live:`),
          projectSprint(project),
          say(
            'user',
            'Now recommend: (1) a priority P0-P3 with one line of reasoning, (2) an assignee, considering who already ' +
              'carries the most open work, (3) whether it belongs in this sprint. Then ask me before you apply anything with ' +
              'the update_issue tool.',
          ),
        ],
      };
    },
  };

  const sprintReview: PromptDefinition = {
    name: 'sprint_review',
    title: 'Sprint review',
    description: 'Review a sprint: what got done, what is at risk, what to carry over. Defaults to the current sprint.',
    arguments: [
      {
        name: 'sprint',
        title: 'Sprint',
        description: 'Sprint id, e.g. PROJ-S42; default: the current sprint.',
        complete: complete.sprintId,
      },
    ],
    get(args) {
      const sprint = args.sprint?.trim();
      const statsUri = sprint ? TEMPLATES.sprint.expand({ sprint_id: sprint }) : CURRENT_SPRINT_URI;
      const stats = embed(statsUri, 'sprint');
      const project = sprint ? (sprint.split('-S')[0] ?? '') : (currentProject(store) ?? '');
      return {
        description: `Review of ${sprint ?? 'the current sprint'}`,
        messages: [
          say('user', `Let's review ${sprint ?? 'the current sprint'}. These are its numbers right now:`),
          stats,
          say(
            'assistant',
            'Thanks. To judge what is at risk I also need the open work, especially anything still in progress or in review.',
          ),
          say('user', 'Here are the open issues of the project that are in progress or in review:'),
          embed(TEMPLATES.projectIssues.expand({ project_key: project, status: 'in_progress' }), 'sprint'),
          embed(TEMPLATES.projectIssues.expand({ project_key: project, status: 'in_review' }), 'sprint'),
          say(
            'user',
            'Write the review: progress against the goal (quote progress_pct and days_remaining), open P0s, ' +
              'the issues at risk of missing the sprint and why, and what you would carry over to the next sprint.',
          ),
        ],
      };
    },
  };

  const standup: PromptDefinition = {
    name: 'standup',
    title: 'Daily standup',
    description:
      "Prepare a standup update across projects: yesterday's progress, today's plan, blockers, with each project's sprint. " +
      'For one person, or the whole team.',
    arguments: [
      {
        name: 'assignee',
        title: 'Person',
        description: 'Handle, e.g. alice; default: the whole team.',
        complete: complete.assignee,
      },
    ],
    get(args) {
      const who = args.assignee?.trim();
      // Across projects: a person's work, or the team's, wherever it is.
      const jql = who
        ? `assignee = "${who.replace(/["\\]/g, '')}" AND (status != done OR updated >= -1d) ORDER BY priority`
        : 'sprint in openSprints() AND status in (in_progress, in_review, blocked) ORDER BY priority';
      const work = store.searchIssues({ query: jql, limit: 100 });
      return {
        description: who ? `Standup for ${who}` : 'Team standup',
        messages: [
          say('user', who ? `Prepare ${who}'s standup update. Their issues:` : 'Prepare the team standup. The work in progress:'),
          embed(TEMPLATES.search.expand({ jql }), 'assignee'),
          say('assistant', 'Got it. Let me also look at the sprints so the update says where we stand.'),
          ...sprintsOf(who ? work.items.map((issue) => issue.project) : store.listProjects().map((p) => p.key)),
          say(
            'user',
            'Write three short sections, Done / Doing / Blocked, one line per issue with its key. ' +
              'Flag any P0 that is not in progress. Keep it under 12 lines.',
          ),
        ],
      };
    },
  };

  return [triage, sprintReview, standup, bugReportPrompt(store), ...sprintPrompts(store, { say, embed })];
}
