// Toolsets and read-only mode: which of the tracker's tools a host is offered.
//
// A host shows the model every tool it lists, and each costs context whether it is used or
// not. `--toolsets issues,sprints` lists only those sets' tools; `--read-only` lists only the
// tools whose annotations say they change nothing (readOnlyHint), so the annotations stay the
// one place that says what mutates (readOnlyHint is a hint to clients, not a guarantee, per
// https://modelcontextprotocol.io/specification/2025-11-25/server/tools "Tool Annotations"; here
// it decides what is served). A tool left out is not there at all: calling it answers exactly like
// calling a tool that never existed (-32602 "Unknown tool", the same page's "Error Handling"). Resources, templates, prompts and
// subscriptions are reads and stay as they are.

import type { AuthInfo } from '../../protocol/context.js';
import type { ToolDefinition } from '../../protocol/tools.js';

export const TOOLSET_NAMES = ['issues', 'sprints', 'admin', 'projects'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];
/**
 * Sets offered only when named (`--toolsets issues,projects`): setting a project up is rare,
 * and its tools would cost every conversation context (the default tools/list stays within
 * lib/tests/tools-budget.test.ts's budget).
 */
export const OPT_IN_TOOLSETS: readonly ToolsetName[] = ['projects'];

/**
 * Every tool's set, in one table: a tool missing here fails lib/tests/toolsets.test.ts, so a
 * new tool must be placed. issues: reading and changing single issues; sprints: what is about
 * a sprint as a whole; admin: changes to many issues at once; projects: a project's fields, and
 * import and export (opt-in).
 */
export const TOOLSET_OF: Readonly<Record<string, ToolsetName>> = {
  search_issues: 'issues',
  get_issue: 'issues',
  create_issue: 'issues',
  update_issue: 'issues',
  add_comment: 'issues',
  add_attachment: 'issues',
  link_issues: 'issues',
  summarize_sprint: 'sprints',
  manage_sprint: 'sprints',
  bulk_update_status: 'admin',
  define_fields: 'projects',
  import_issues: 'projects',
  export_issues: 'projects',
};

export interface ToolSelection {
  /** The sets to offer; undefined offers every set but the opt-in ones. */
  toolsets?: readonly ToolsetName[];
  /** Offer only the tools whose annotations say they change nothing. */
  readOnly?: boolean;
}

/** A request's selection, as its AuthInfo carries it (users-file.ts puts it there). */
export const selectionExtra = (selection: ToolSelection): Record<string, unknown> => ({ selection });

export function selectionOf(auth: AuthInfo): ToolSelection {
  return (auth.extra?.selection as ToolSelection | undefined) ?? {};
}

/** Whether a tool changes data: only an explicit readOnlyHint says it does not. */
export const isMutating = (tool: ToolDefinition): boolean => tool.annotations?.readOnlyHint !== true;

/** The tools a host is offered, in their given order. A tool with no set is never offered by a chosen set. */
export function selectTools(tools: readonly ToolDefinition[], selection: ToolSelection): ToolDefinition[] {
  return tools.filter((tool) => {
    const set = TOOLSET_OF[tool.name];
    if (
      selection.toolsets === undefined
        ? set !== undefined && OPT_IN_TOOLSETS.includes(set)
        : set === undefined || !selection.toolsets.includes(set)
    )
      return false;
    return !(selection.readOnly === true && isMutating(tool));
  });
}

/**
 * `issues,sprints` as set names. An unknown name is a startup error naming the valid ones:
 * a typo must not quietly serve fewer tools.
 */
export function parseToolsets(text: string, source = '--toolsets'): ToolsetName[] {
  const names = text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) throw new Error(`${source} needs one or more of: ${TOOLSET_NAMES.join(', ')}`);
  const unknown = names.filter((name) => !(TOOLSET_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`${source}: unknown toolset ${unknown.join(', ')}; the toolsets are ${TOOLSET_NAMES.join(', ')}`);
  return [...new Set(names)] as ToolsetName[];
}

/** `MCP_TRACKER_READ_ONLY` (or a request's X-MCP-Readonly): 1/true/yes turn it on, 0/false/no or empty leave it off; anything else is a mistake. */
export function parseReadOnlyVariable(text: string | undefined, source = 'MCP_TRACKER_READ_ONLY'): boolean {
  const value = (text ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['', '0', 'false', 'no'].includes(value)) return false;
  throw new Error(`${source} must be 1, true, yes, 0, false or no, got ${text}`);
}
