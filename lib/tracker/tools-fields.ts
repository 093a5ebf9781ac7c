// define_fields: what a project's issues may carry besides the built-in fields (issue 33): its
// components, its versions and its custom fields (number, text, date, select, multiselect).
// Issues then set them with create_issue and update_issue (`fields`), JQL searches them (due,
// component, fixVersion, "Custom Name") and get_issue shows them.
//
// In the opt-in `projects` toolset (toolsets.ts): defining fields is a setup step, rare beside
// the daily tools, and every listed tool costs the model context on every turn.
//
// Annotations (https://modelcontextprotocol.io/specification/2025-11-25/server/tools): it changes
// data and replaces the old definition (destructive); the same call again changes nothing
// (idempotent); the tracker is a closed world.
import * as z from 'zod/mini';
import type { RequestContext } from '../../protocol/context.js';
import { type ToolDefinition, structuredResult } from '../../protocol/tools.js';
import { FIELD_TYPES, ProjectFieldsSchema, type TrackerStore } from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';

const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

export function defineFieldsTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'define_fields',
    title: 'Define project fields',
    description:
      "Sets what a project's issues may carry beyond the built-in fields: components, versions (fix versions) and " +
      'custom fields. Each part given replaces the old one; removing a value an issue still holds is refused. ' +
      'Issues set them with create_issue or update_issue `fields`; JQL: due, component, fixVersion, "Field Name".',
    input: z.strictObject({
      project: described(z.string(), 'Project key, e.g. PROJ.'),
      components: optional(z.array(z.string()), 'Every component, e.g. ["api", "Web UI"].'),
      versions: optional(z.array(z.string()), 'Every version, e.g. ["2.1", "2.2"].'),
      custom: optional(
        z.array(z.strictObject({ name: z.string(), type: z.string(), options: z.optional(z.array(z.string())) })),
        `Every custom field: name, type (${FIELD_TYPES.join(', ')}), options of a select.`,
      ),
    }),
    output: z.object({ project: z.string(), fields: ProjectFieldsSchema, changed: z.boolean(), change: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: ({ project, ...parts }, context: RequestContext) =>
      domain(async () => {
        const { fields, change } = await store.defineFields(project, parts);
        const changed = change.projects.length > 0;
        if (changed) context.log('info', { change: change.description }, 'tracker');
        return structuredResult({ project: project.trim().toUpperCase(), fields, changed, change: change.description });
      }),
  };
}
