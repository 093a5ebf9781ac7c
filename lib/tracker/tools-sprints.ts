// The sprint tool: one verb per noun (issue 15), so create, start, close and goal are one
// tool's actions rather than four tools each listed to the model on every turn.
//
// Annotations (https://modelcontextprotocol.io/specification/2025-11-25/server/tools):
// it changes data (not read-only); closing moves issues out of the sprint and a goal
// overwrites the old one (destructive); creating twice makes two sprints (not idempotent).

import * as z from 'zod/mini';
import type { RequestContext } from '../../protocol/context.js';
import { type ToolDefinition, ToolError, structuredResult } from '../../protocol/tools.js';
import { LIMITS, SPRINT_LIMITS, SprintSchema, type SprintMutation, type TrackerStore } from '../store/index.js';
import { domain } from './domain-errors.js';
import { TEMPLATES } from './resources.js';

const ACTIONS = ['create', 'start', 'close', 'goal'] as const;
type Action = (typeof ACTIONS)[number];

const optional = <T extends z.ZodMiniType>(schema: T, description: string) => z.optional(schema).check(z.describe(description));

const Input = z.object({
  action: z.enum(ACTIONS),
  sprint: optional(z.string(), 'Sprint id, e.g. PROJ-S43; not for create.'),
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
  return [manageSprint];
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
