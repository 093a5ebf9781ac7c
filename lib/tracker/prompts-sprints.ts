// Sprint prompts: planning the next sprint, and release notes for one that is done.
//
//   plan_sprint(sprint?, capacity?)   the sprint to fill, the ready view, the backlog, and a
//                                     capacity in story points (default: the velocity, the mean
//                                     done in the project's last 3 closed sprints that held work)
//   release_notes(sprint)             the sprint's done issues, grouped by type
//
// The listing here; the messages (planSprintMessages, releaseNotesMessages) are loaded on first
// use with the other prompts' (prompt-messages.ts). As there, the live data goes in as embedded
// resources read when the prompt is fetched (the sprint, jira://ready?project=..., the backlog as a jira://search), each with its
// uri, so a host shows them as resources and can read them again later
// (https://modelcontextprotocol.io/specification/2025-11-25/server/prompts, Embedded Resources);
// what no resource answers (the capacity, release notes' groups by type) is written into the text.
import type { PromptDefinition } from '../../protocol/prompts.js';
import { invalidParams } from '../../protocol/errors.js';
import { ISSUE_TYPES, type Issue, type TrackerStore } from '../store/index.js';
import { completers } from './completers.js';
import { currentProject } from './resource-reads.js';
import { TEMPLATES } from './resource-uris.js';
import { embed, say, type Expand, type PromptMessages } from './prompt-parts.js';

/** Issues written into a prompt's text; the embedded search says how many there are in all. */
const LISTED_MAX = 50;
const CAPACITY_MAX = 1_000;

const searchUri = (jql: string) => TEMPLATES.search.expand({ jql });
const line = (issue: Issue) =>
  `- ${issue.key} [${issue.priority}, ${issue.story_points ?? '?'} pts, ${issue.status}] ${issue.title}`;

/** Mean points done in the project's last closed sprints that held work (sprint-report.ts), or null. */
function velocity(store: TrackerStore, project: string): { points: number; sprints: string[] } | null {
  const measured = store.getVelocity(project);
  if (measured.points === null) return null;
  return { points: measured.points, sprints: measured.sprints.map((s) => `${s.sprint}: ${s.done_points}`) };
}

function sprintToPlan(store: TrackerStore, raw: string | undefined): string {
  if (raw?.trim()) return raw.trim().toUpperCase();
  const project = currentProject(store) ?? '';
  const next = store.listSprints({ project, state: 'future' })[0];
  if (next === undefined) throw invalidParams(`Project ${project} has no future sprint to plan; create one with manage_sprint.`);
  return next.id;
}

function capacityOf(store: TrackerStore, raw: string | undefined, project: string): string {
  if (raw?.trim()) {
    const points = Number(raw);
    if (!Number.isInteger(points) || points < 1 || points > CAPACITY_MAX)
      throw invalidParams(`capacity must be a whole number of story points from 1 to ${CAPACITY_MAX}, got ${raw.slice(0, 40)}`);
    return `${points} story points`;
  }
  const measured = velocity(store, project);
  if (measured === null) return 'unknown (no closed sprint of the project held work): ask me for it';
  return `${measured.points} story points (the mean done in ${measured.sprints.join(', ')})`;
}

export function sprintPrompts(store: TrackerStore, expand: Expand): PromptDefinition[] {
  const complete = completers(store);

  const planSprint: PromptDefinition = {
    name: 'plan_sprint',
    title: 'Plan a sprint',
    description:
      'Fill a future sprint (default: the next one) from the ready view and the backlog, within a capacity in story ' +
      'points (default: the velocity of the last closed sprints that held work).',
    arguments: [
      {
        name: 'sprint',
        title: 'Sprint',
        description: 'Sprint id, e.g. PROJ-S43; default: the next future sprint.',
        complete: complete.sprintId,
      },
      {
        name: 'capacity',
        title: 'Capacity',
        description: 'Story points the team can take on; default: the velocity.',
        complete: (value, chosen) => {
          const project = (chosen.sprint ?? '').split('-S')[0] || currentProject(store) || '';
          const measured = store.listProjects().some((p) => p.key === project) ? velocity(store, project) : null;
          const values = measured !== null && String(measured.points).startsWith(value) ? [String(measured.points)] : [];
          return { values, total: values.length };
        },
      },
    ],
    get: expand('plan_sprint'),
  };

  const releaseNotes: PromptDefinition = {
    name: 'release_notes',
    title: 'Release notes',
    description: 'Release notes for a sprint: its done issues, grouped by type.',
    arguments: [
      {
        name: 'sprint',
        title: 'Sprint',
        description: 'Sprint id, e.g. PROJ-S41.',
        required: true,
        complete: complete.sprintId,
      },
    ],
    get: expand('release_notes'),
  };

  return [planSprint, releaseNotes];
}

export const planSprintMessages: PromptMessages = (store, args) => {
  const id = sprintToPlan(store, args.sprint);
  const stats = embed(store, TEMPLATES.sprint.expand({ sprint_id: id }), 'sprint');
  const sprint = store.getSprint(id);
  const backlog = `project = ${sprint.project} AND sprint IS EMPTY AND status != done ORDER BY priority`;
  return {
    description: `Plan ${id}`,
    messages: [
      say(
        'user',
        `Let's plan ${id} (${sprint.name}, ${sprint.start_date} to ${sprint.end_date}, goal: ${sprint.goal || 'none yet'}). ` +
          `Capacity: ${capacityOf(store, args.capacity, sprint.project)}. What is in it now:`,
      ),
      stats,
      say('assistant', 'I will start from the work that is ready now, then look at the backlog.'),
      say(
        'user',
        `The ready view of ${sprint.project}: open issues of the active sprint whose blockers are all done, most urgent first.`,
      ),
      embed(store, TEMPLATES.ready.expand({ project: sprint.project }), 'sprint'),
      say('user', 'The backlog, most urgent first:'),
      embed(store, searchUri(backlog), 'sprint'),
      say(
        'user',
        `Propose what goes into ${id}: ready work that will not finish in the active sprint first, then the most urgent ` +
          'backlog issues, within the capacity (sum the story points; an unestimated issue needs an estimate first). ' +
          'Leave out epics and blocked issues. Suggest a one-line goal. Ask me before you apply anything with ' +
          'update_issue (sprint) or manage_sprint (goal, start).',
      ),
    ],
  };
};

export const releaseNotesMessages: PromptMessages = (store, args) => {
  const id = (args.sprint ?? '').trim().toUpperCase();
  const stats = embed(store, TEMPLATES.sprint.expand({ sprint_id: id }), 'sprint');
  const done = store.searchIssues({ sprint: id, status: 'done', limit: LISTED_MAX });
  const groups = ISSUE_TYPES.map((type) => {
    const issues = done.items.filter((issue) => issue.type === type);
    return issues.length === 0 ? '' : `${type} (${issues.length}):\n${issues.map(line).join('\n')}`;
  }).filter((group) => group !== '');
  if (done.total > done.items.length) groups.push(`(and ${done.total - done.items.length} more done issues)`);
  return {
    description: `Release notes for ${id}`,
    messages: [
      say('user', `Write the release notes for ${id}. The sprint:`),
      stats,
      say('assistant', 'I have the sprint. Which issues were done in it?'),
      say(
        'user',
        `Its done issues, grouped by type:\n\n${groups.length === 0 ? '(nothing was done in this sprint)' : groups.join('\n\n')}`,
      ),
      embed(store, searchUri(`sprint = ${id} AND status = done ORDER BY type`), 'sprint'),
      say(
        'user',
        'Write them for the people who use the product: a one-line headline, then New (stories), Fixed (bugs) and ' +
          'Other changes (tasks), one line per issue with its key, in plain words. Leave out epics; mention the sprint goal.',
      ),
    ],
  };
};
