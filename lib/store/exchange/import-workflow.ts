// A project's own workflow from a Jira export's statuses, made by the same import (one step).
//
// Jira teams name their own statuses (Code Review, QA, Won't Do). When a project the import
// writes is new, or still on the default workflow, and its rows name a status the default has
// under no name or alias ("Open" and "Closed" are the default's todo and done), the import
// gives the project a workflow of the statuses its rows name, before its issues are written, so
// each row keeps its status instead of being mapped onto one of ours:
// - each status keeps the file's name, its id made from it (Code Review → code_review); a name
//   the default knows keeps the default's id (To Do → todo), so issues already there stay put;
// - its category is the Status Category column's (To Do, In Progress, Done), else the one its
//   name says (jira-mapping.ts jiraStatusCategory); a status neither places is left out, and its
//   rows are refused with the reason, as before;
// - the statuses are in category order (to do first: the first is where new issues start), and
//   in each the default's first, then the others by id, whatever the order of the rows;
// - the resolutions are the default's, then the Resolution column's others (Unresolved aside);
// - a CSV carries no transitions, so any status may move to any other (Jira's "all" transition)
//   and an open issue closes in one call with a resolution; `mcp-tracker workflow` tightens the
//   moves later (docs/workflows.md);
// - statuses the project's issues sit in already are kept, so the change never orphans one.
// The store sets it as `mcp-tracker workflow` does (domain/workflows.ts): a status some other
// project has in another category is refused there, and the import then keeps the default and
// says why.
import { isDomainError } from '../model/errors.js';
import type { Status } from '../model/schema.js';
import {
  DEFAULT_WORKFLOW,
  STATUS_CATEGORIES,
  categoryWord,
  findStatus,
  idOfName,
  squeeze,
  workflowStatus,
  type WorkflowStatus,
} from '../model/workflow.js';
import type { TrackerStore } from '../store-api.js';
import { COLUMN, type JiraRow } from './jira-csv.js';
import { jiraStatusCategory } from './jira-mapping.js';

/** A workflow as `mcp-tracker workflow` reads it (domain/workflows.ts parseWorkflow), from the rows' statuses. */
export interface WorkflowFromRows {
  readonly statuses: WorkflowStatus[];
  readonly transitions: Record<Status, Status[]>;
  readonly resolutions: string[];
  readonly close_from_any_open: true;
}

/**
 * The workflow the rows of one project name, keeping the statuses in `held` (where its issues
 * are); null when they name no status the default lacks that a category places.
 */
export function workflowFromRows(rows: readonly JiraRow[], held: readonly Status[]): WorkflowFromRows | null {
  const statuses = new Map<Status, WorkflowStatus>();
  for (const row of rows) {
    const name = row.cell(COLUMN.status);
    if (name === '') continue;
    const known = findStatus(DEFAULT_WORKFLOW, name);
    const id = known ?? idOfName(name);
    // A status has one category everywhere: the default's own keep theirs.
    const category =
      known !== undefined
        ? workflowStatus(DEFAULT_WORKFLOW, known)!.category
        : jiraStatusCategory(name, row.cell(COLUMN.statusCategory));
    if (category !== undefined && id !== '' && !statuses.has(id)) statuses.set(id, { id, name, category });
  }
  if ([...statuses.keys()].every((id) => workflowStatus(DEFAULT_WORKFLOW, id) !== undefined)) return null;
  for (const id of held) if (!statuses.has(id)) statuses.set(id, { ...workflowStatus(DEFAULT_WORKFLOW, id)! });
  // Category by category; in each, the default's statuses in its order, then the others by id: the same for any order of rows.
  const rank = (id: Status): number => DEFAULT_WORKFLOW.statuses.findIndex((status) => status.id === id) >>> 0;
  const ordered = STATUS_CATEGORIES.flatMap((category) =>
    [...statuses.values()]
      .filter((status) => status.category === category)
      .sort((a, b) => rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : 1)),
  );
  const ids = ordered.map((status) => status.id);
  const fromFile = rows
    .map((row) => row.cell(COLUMN.resolution))
    .filter((name) => name !== '' && squeeze(name) !== 'unresolved')
    .map(idOfName)
    .sort();
  return {
    statuses: ordered,
    transitions: Object.fromEntries(ids.map((id) => [id, ids.filter((other) => other !== id)])),
    resolutions: [...new Set([...DEFAULT_WORKFLOW.resolutions, ...fromFile])],
    close_from_any_open: true,
  };
}

/**
 * Gives `project` the workflow its rows name, when it is on the default and they name statuses
 * the default lacks; the report's line, or null when nothing was set.
 */
export async function setWorkflowFromRows(
  store: TrackerStore,
  project: string,
  rows: readonly JiraRow[],
): Promise<string | null> {
  if (JSON.stringify(store.getWorkflow(project)) !== JSON.stringify(DEFAULT_WORKFLOW)) return null;
  const held = DEFAULT_WORKFLOW.statuses
    .map((status) => status.id)
    .filter((status) => store.searchIssues({ project, status, limit: 1 }).total > 0);
  const workflow = workflowFromRows(rows, held);
  if (workflow === null) return null;
  try {
    await store.setWorkflow(project, workflow);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return `${project} keeps the default workflow, its statuses mapped onto it: ${error.message}`;
  }
  return (
    `${project}'s own workflow, from the file's statuses: ${workflow.statuses.map((s) => `${s.name} (${categoryWord(s.category)})`).join(', ')}; ` +
    `resolutions ${workflow.resolutions.join(', ')}; any status may move to any other (mcp-tracker workflow ${project} sets the moves)`
  );
}
