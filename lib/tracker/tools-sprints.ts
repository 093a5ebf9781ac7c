// The sprint tools: summarize_sprint reads a sprint, manage_sprint changes it. One verb per
// noun (issue 15): create, start, close and goal are one tool's actions rather than four
// tools each listed to the model on every turn.
//
// Annotations (https://modelcontextprotocol.io/specification/2025-11-25/server/tools):
// summarize_sprint only reads. manage_sprint changes data (not read-only); closing moves
// issues out of the sprint and a goal overwrites the old one (destructive); creating twice
// makes two sprints (not idempotent).
//
// summarize_sprint is also the tool twin of jira://sprint/{sprint_id}, its /burndown and
// jira://project/{project_key}/stats, for hosts that read no templates
// (lib/tests/tool-twins.test.ts). A resource read answers at once, the same for the same
// data, whoever asks; so does the twin: its numbers and its summary are computed, whatever the
// client offers. The host's model writes the summary only when the call says `prose: true`,
// and `source` says who wrote it. Not by default, because a sampling request is not a read:
// "there SHOULD always be a human in the loop with the ability to deny sampling requests"
// (https://modelcontextprotocol.io/specification/2025-11-25/client/sampling), so the answer
// may wait on a person, or be refused, and on 2026-07-28 it takes a second round trip
// (input_required, https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr).

import * as z from 'zod/mini';
import type { ToolContext } from '../../protocol/asking.js';
import type { RequestContext } from '../../protocol/context.js';
import { type ToolDefinition, ToolError, structuredResult } from '../../protocol/tools.js';
import {
  LIMITS,
  SPRINT_LIMITS,
  SprintSchema,
  type Issue,
  type Page,
  type SprintMutation,
  type SprintReport,
  type SprintStats,
  type TrackerStore,
} from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';
import { TEMPLATES } from './resource-uris.js';
import { defaultProject, sprintList, sprintWithHistory } from './resource-reads.js';

const ACTIONS = ['create', 'start', 'close', 'goal'] as const;
type Action = (typeof ACTIONS)[number];

const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

/** How much of a sprint the host's model is shown, and how long its summary may be. */
const SUMMARY_ISSUES_MAX = 50;
const SUMMARY_MAX_TOKENS = 300;

const SummaryInput = z.strictObject({
  sprint: optional(z.string(), 'Sprint id, e.g. PROJ-S42; default: the active sprint of the project.'),
  project: optional(z.string(), 'Project key, e.g. PROJ; default: your current sprint.'),
  prose: optional(z.boolean(), "true: the host's model writes the summary (sampling)."),
});

const SummaryOutput = z.object({
  sprint: z.string(),
  summary: z.string(),
  source: described(
    z.enum(['host_model', 'computed']),
    "Who wrote the summary: the host's model, through sampling, or the server.",
  ),
  model: z.optional(z.string()),
  why_computed: z.optional(z.string()),
  // The numbers the resources jira://sprint/{sprint_id}, its /burndown and jira://project/{project_key}/stats
  // give: their tool twin, for hosts that never read templates.
  stats: z.record(z.string(), z.unknown()),
  project_stats: z.record(z.string(), z.unknown()),
  sprints: z.array(z.record(z.string(), z.unknown())),
  burndown: z.array(
    z.object({
      date: z.string(),
      remaining_points: z.number(),
      remaining_issues: z.int(),
      scope_points: z.number(),
      ideal_points: z.number(),
    }),
  ),
});

/** The sprint's numbers and issue titles, as the user message of a sampling request. */
function sprintBriefing(stats: SprintStats, issues: Page<Issue>): string {
  const lines = issues.items.map((issue) => `- ${issue.key} [${issue.status}, ${issue.priority}] ${issue.title}`);
  if (issues.total > issues.items.length) lines.push(`(and ${issues.total - issues.items.length} more)`);
  return [
    `Sprint ${stats.sprint} "${stats.name}" of project ${stats.project} (${stats.state}), ${stats.start_date} to ${stats.end_date}.`,
    `Goal: ${stats.goal}`,
    computedSummary(stats),
    'Issues:',
    ...lines,
    '',
    'Summarize this sprint for the team in at most three sentences: progress against the goal, what is at risk, what needs attention.',
  ].join('\n');
}

/** The summary the server writes itself, from the sprint's numbers (also used by the benchmark's SDK peer). */
export function computedSummary(stats: SprintStats, history?: SprintReport): string {
  const statuses = Object.entries(stats.by_status)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return (
    `${stats.name} (${stats.sprint}, ${stats.state}): ${stats.progress_pct}% of ${stats.points_total} story points done, ` +
    `${stats.days_remaining} days remaining. ${stats.issue_count} issues: ${statuses}. ` +
    `${stats.p0_open} open P0, ${stats.unassigned_open} open and unassigned.` +
    (history === undefined ? '' : ` ${historySentence(history)}`)
  );
}

/** What the sprint held over its life, in one sentence: "Committed 25 points (8 issues), added 3..." */
function historySentence(history: SprintReport): string {
  const part = (name: string, of: SprintReport['committed']) => `${name} ${of.points} points (${of.issues.length} issues)`;
  const left =
    history.state === 'closed'
      ? `carried ${history.open.points} points (${history.open.issues.length} issues) to ${history.carried_to ?? 'the backlog'}`
      : part('open', history.open);
  return `${[part('Committed', history.committed), part('added', history.added), part('removed', history.removed), part('done', history.done)].join(', ')}, ${left}.`;
}

/** The host model's summary, or why there is none (no sampling offered, refused, failed). */
async function prose(
  store: TrackerStore,
  stats: SprintStats,
  context: ToolContext,
): Promise<{ text: string; model: string } | { why: string }> {
  const issues = store.searchIssues({ sprint: stats.sprint, limit: SUMMARY_ISSUES_MAX });
  // https://modelcontextprotocol.io/specification/2025-11-25/client/sampling: no context
  // from other servers, a modest length; the client may show it to the user first.
  const sampled = await context.sample(
    {
      messages: [{ role: 'user', content: { type: 'text', text: sprintBriefing(stats, issues) } }],
      systemPrompt: 'You write short, factual sprint summaries for a software team.',
      maxTokens: SUMMARY_MAX_TOKENS,
      includeContext: 'none',
    },
    { key: 'sprint_summary' },
  );
  return sampled.ok ? sampled.value : { why: `sampling ${sampled.why}: ${sampled.detail}` };
}

const Input = z.strictObject({
  action: z.enum(ACTIONS),
  sprint: optional(z.string(), 'Sprint id or name, e.g. PROJ-S43; not for create.'),
  project: optional(z.string(), 'create: project key.'),
  name: optional(z.string(), `create: up to ${LIMITS.nameMax} characters.`),
  start_date: optional(z.string(), 'create: YYYY-MM-DD.'),
  end_date: optional(z.string(), `create: YYYY-MM-DD, at most ${SPRINT_LIMITS.sprintDaysMax} days on.`),
  goal: optional(z.string(), `create, goal: up to ${LIMITS.goalMax} characters.`),
  carry_to: optional(z.nullable(z.string()), 'close: where unfinished issues go: a future sprint id, or null (backlog).'),
});
type SprintArgs = z.infer<typeof Input>;
const CREATE_NEEDS = ['project', 'name', 'start_date', 'end_date'] as const;

const Output = z.object({
  sprint: SprintSchema,
  uri: z.string(),
  changed: z.boolean(),
  change: z.string(),
  carried: z.array(z.string()),
  carried_to: z.nullable(z.string()),
});

export function sprintTools(store: TrackerStore): ToolDefinition[] {
  const summarizeSprint: ToolDefinition = {
    name: 'summarize_sprint',
    title: 'Summarize sprint',
    description:
      "A sprint's numbers (default: your current one), its history (committed, added, done, carried), its project's " +
      'sprints, numbers and burndown, with a summary computed from them.',
    input: SummaryInput,
    output: SummaryOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args, context: ToolContext) =>
      domain(async () => {
        const current = args.sprint ?? (args.project === undefined ? store.getCurrentSprint()?.id : undefined);
        // No sprint named and none active: the project's error says which sprints it has.
        const stats = current
          ? store.getSprintStats(current)
          : store.getCurrentSprintStats(args.project ?? defaultProject(store) ?? '');
        const history = store.getSprintReport(stats.sprint);
        const numbers = {
          stats: sprintWithHistory(store, stats.sprint),
          project_stats: store.getProjectStats(stats.project),
          sprints: sprintList(store, stats.project, undefined).sprints,
          burndown: [...store.getSprintBurndown(stats.sprint).points],
        };
        const computed = { sprint: stats.sprint, summary: computedSummary(stats, history), source: 'computed' };
        if (args.prose !== true) return structuredResult({ ...computed, ...numbers });
        const written = await prose(store, stats, context);
        if ('why' in written) return structuredResult({ ...computed, why_computed: written.why, ...numbers });
        return structuredResult({
          sprint: stats.sprint,
          summary: written.text,
          source: 'host_model',
          model: written.model,
          ...numbers,
        });
      }),
  };

  const manageSprint: ToolDefinition = {
    name: 'manage_sprint',
    title: 'Manage sprint',
    description:
      'Creates a sprint (future), starts it (one active per project), closes the active one (its unfinished issues ' +
      'go to carry_to) or sets its goal.',
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (args: SprintArgs, context: RequestContext) =>
      domain(async () => {
        const mutation = await perform(store, args.action, args);
        const changed = mutation.change.sprints.length > 0;
        if (changed) context.log('info', { change: mutation.change.description, sprints: mutation.change.sprints }, 'tracker');
        return structuredResult({
          sprint: mutation.sprint,
          uri: TEMPLATES.sprint.expand({ sprint_id: mutation.sprint.id }),
          changed,
          change: mutation.change.description,
          carried: [...mutation.carried],
          carried_to: mutation.carried_to,
        });
      }),
  };
  return [summarizeSprint, manageSprint];
}

function perform(store: TrackerStore, action: Action, args: SprintArgs): Promise<SprintMutation> {
  if (action === 'create') {
    const missing = CREATE_NEEDS.filter((field) => args[field] === undefined);
    if (missing.length > 0) throw new ToolError(`create needs ${CREATE_NEEDS.join(', ')}; missing: ${missing.join(', ')}.`);
    return store.createSprint(args);
  }
  const id = args.sprint;
  if (id === undefined) throw new ToolError(`${action} needs sprint, e.g. "PROJ-S43".`);
  if (action === 'start') return store.startSprint(id);
  if (action === 'close') return store.closeSprint(id, args.carry_to);
  if (args.goal === undefined) throw new ToolError('goal needs the new goal text in goal.');
  return store.setSprintGoal(id, args.goal);
}
