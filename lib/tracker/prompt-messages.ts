// What each prompt expands into on prompts/get: several user/assistant turns, with the live
// resources it talks about embedded (`type: "resource"`, with its MIME type, A-13), read at the
// moment the prompt is fetched rather than a copy pasted into the text. The entry of
// dist/mcp-tracker-prompts.mjs, loaded on the first prompts/get (prompts-loader.ts): a server
// lists its prompts without parsing any of this.
import type { PromptMessage } from '../../protocol/prompts.js';
import type { TrackerStore } from '../store/index.js';
import { bugReportMessages } from './prompt-bug-report.js';
import { embed, say, type PromptMessages, type PromptName } from './prompt-parts.js';
import { planSprintMessages, releaseNotesMessages } from './prompts-sprints.js';
import { currentProject } from './resource-reads.js';
import { CURRENT_SPRINT_URI, TEMPLATES, issueUri } from './resource-uris.js';

/** A project's active sprint, live, or a line saying it has none (and where its sprints are). */
function projectSprint(store: TrackerStore, project: string): PromptMessage {
  if (store.listSprints({ project, state: 'active' }).length === 0)
    return say('user', `${project} has no active sprint now; its sprints: jira://sprints?project=${project}.`);
  return embed(store, TEMPLATES.projectSprint.expand({ project_key: project }), 'the current sprint');
}

/** The active sprints of these projects (each once), or the user's current sprint when none is. */
function sprintsOf(store: TrackerStore, projects: readonly string[]): PromptMessage[] {
  const active = [...new Set(projects)].filter((p) => store.listSprints({ project: p, state: 'active' }).length > 0);
  if (active.length === 0) return [embed(store, CURRENT_SPRINT_URI, 'the current sprint')];
  return active.sort().map((project) => projectSprint(store, project));
}

const triageMessages: PromptMessages = (store, args) => {
  const key = (args.issue_key ?? '').trim().toUpperCase();
  const issue = embed(store, issueUri(key), 'issue_key');
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
      projectSprint(store, project),
      say(
        'user',
        'Now recommend: (1) a priority P0-P3 with one line of reasoning, (2) an assignee, considering who already ' +
          'carries the most open work, (3) whether it belongs in this sprint. Then ask me before you apply anything with ' +
          'the update_issue tool.',
      ),
    ],
  };
};

const sprintReviewMessages: PromptMessages = (store, args) => {
  const sprint = args.sprint?.trim();
  const statsUri = sprint ? TEMPLATES.sprint.expand({ sprint_id: sprint }) : CURRENT_SPRINT_URI;
  const stats = embed(store, statsUri, 'sprint');
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
      embed(store, TEMPLATES.projectIssues.expand({ project_key: project, status: 'in_progress' }), 'sprint'),
      embed(store, TEMPLATES.projectIssues.expand({ project_key: project, status: 'in_review' }), 'sprint'),
      say(
        'user',
        'Write the review: progress against the goal (quote progress_pct and days_remaining), open P0s, ' +
          'the issues at risk of missing the sprint and why, and what you would carry over to the next sprint.',
      ),
    ],
  };
};

const standupMessages: PromptMessages = (store, args) => {
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
      embed(store, TEMPLATES.search.expand({ jql }), 'assignee'),
      say('assistant', 'Got it. Let me also look at the sprints so the update says where we stand.'),
      ...sprintsOf(store, who ? work.items.map((issue) => issue.project) : store.listProjects().map((p) => p.key)),
      say(
        'user',
        'Write three short sections, Done / Doing / Blocked, one line per issue with its key. ' +
          'Flag any P0 that is not in progress. Keep it under 12 lines.',
      ),
    ],
  };
};

/** Every prompt's messages, by the prompt's name. */
export const PROMPT_MESSAGES: Readonly<Record<PromptName, PromptMessages>> = {
  triage_issue: triageMessages,
  sprint_review: sprintReviewMessages,
  standup: standupMessages,
  bug_report: bugReportMessages,
  plan_sprint: planSprintMessages,
  release_notes: releaseNotesMessages,
};
