// import_issues and export_issues: `mcp-tracker import` and `export` as tools, with a dry run
// (issue 33). A Jira CSV export (or an mcp-tracker JSON export, into an empty store) comes in
// as the `text` argument and goes through the same code as the command's file
// (lib/store/exchange/exchange-text.ts): every row through the store's checks, rehearsed on a
// copy in memory first; `dry_run` answers with that rehearsal's report, what would be imported,
// updated and refused, and writes nothing. Re-importing is idempotent by key.
//
// In the opt-in `projects` toolset (toolsets.ts), beside define_fields: a migration is a rare
// setup step, and every listed tool costs the model context on every turn. The exchange code
// (the CSV reader and writer, the Jira mapping) is loaded on the first call, from the companion
// file the commands use (lib/store/exchange-loader.ts): a server start does not parse it.
//
// Bounds: the text is at most IMPORT_LIMITS.fileBytes (the command's CSV bound; the message
// bound applies first), and an export answers at most EXPORT_TOOL_MAX_BYTES: past it the tool
// says to run `mcp-tracker export --out FILE`, which has no such bound.
//
// Annotations (https://modelcontextprotocol.io/specification/2025-11-25/server/tools): an import
// writes and may overwrite the issues its rows name (destructive), the same text again changes
// nothing (idempotent); an export only reads.
import * as z from 'zod/mini';
import type { RequestContext } from '../../protocol/context.js';
import { ToolError, type ToolDefinition, structuredResult } from '../../protocol/tools.js';
import { loadExchangeText, type TrackerStore } from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';

/** An export a tool answers with at most (1 MiB): a model reads no more; the command writes any size to a file. */
export const EXPORT_TOOL_MAX_BYTES = 1024 * 1024;

const FORMAT = z.enum(['csv', 'json']);
const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

export function importIssuesTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'import_issues',
    title: 'Import issues',
    description:
      'Imports a Jira CSV export (Jira column names; people, statuses and types mapped, a new project gets a workflow of ' +
      "the file's statuses) or an mcp-tracker JSON export (empty store only). Issues already here are updated by key, " +
      'never duplicated; a refused row refuses no other. dry_run: report what would be imported, updated and refused, write nothing.',
    input: z.strictObject({
      text: described(z.string(), 'The CSV or JSON file, whole.'),
      format: optional(FORMAT, 'csv or json; default: json when the text starts with {.'),
      dry_run: optional(z.boolean(), 'Report only (default false).'),
      user_map: optional(
        z.record(z.string(), z.string()),
        'Display names or account ids to handles, e.g. {"Zoë Ångström": "zoe"}.',
      ),
    }),
    output: z.object({
      format: FORMAT,
      dry_run: z.boolean(),
      imported: z.number(),
      updated: z.number(),
      unchanged: z.number(),
      refused: z.number(),
      report: z.string(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ text, format, dry_run = false, user_map }, context: RequestContext) => {
      const io = await loadExchangeText();
      return domain(async () => {
        if (Buffer.byteLength(text) > io.IMPORT_LIMITS.fileBytes)
          throw new ToolError(`The text is over ${io.IMPORT_LIMITS.fileBytes} bytes; import it with mcp-tracker import FILE.`);
        const userMap = user_map === undefined ? undefined : io.readUserMap(JSON.stringify(user_map));
        const started = performance.now();
        const done = await io.importText(store, text, format ?? io.formatOf(text), {
          dryRun: dry_run,
          now: () => new Date(),
          userMap,
        });
        const seconds = (performance.now() - started) / 1000;
        const result = io.describeImport(done, 'the text', store.path, seconds);
        if (!dry_run) context.log('info', { import: result.report.split('\n', 2).join(' ') }, 'tracker');
        return structuredResult({ format: done.format, dry_run, ...result });
      });
    },
  };
}

export function exportIssuesTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'export_issues',
    title: 'Export issues',
    description: `Every issue as a Jira CSV (default), or the whole store as JSON (import_issues reads both). At most ${EXPORT_TOOL_MAX_BYTES} bytes.`,
    input: z.strictObject({ format: optional(FORMAT, 'csv (default) or json.') }),
    output: z.object({ format: FORMAT, issues: z.number(), projects: z.number(), text: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async ({ format = 'csv' }) => {
      const io = await loadExchangeText();
      return domain(() => {
        const { text, issues, projects } = io.exportText(store, format);
        const bytes = Buffer.byteLength(text);
        if (bytes > EXPORT_TOOL_MAX_BYTES)
          throw new ToolError(
            `The export is ${bytes} bytes, over the ${EXPORT_TOOL_MAX_BYTES} a tool answers with; ` +
              `run mcp-tracker export --format ${format} --out FILE instead.`,
          );
        return structuredResult({ format, issues, projects, text });
      });
    },
  };
}
