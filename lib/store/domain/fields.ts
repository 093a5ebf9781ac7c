// Fields beyond the built-in ones (model/fields.ts): a project's definition of its components,
// versions and custom fields, and the changes to an issue's values. Every value is checked
// against the project's definition as it is when the record is planned (under the lock).
import { applyFieldChanges, NO_PROJECT_FIELDS, parseProjectFields, valuesNotAllowed } from '../model/fields.js';
import { domainError } from '../model/errors.js';
import type { IssueFieldValues, ProjectFields } from '../model/schema.js';
import type { RecordDraft } from '../model/record-schema.js';
import { requireIssue, requireProject } from '../state/lookup.js';
import type { TrackerState } from '../state/state.js';

/** How many issues a refusal names before it says how many more there are. */
const NAMED_MAX = 5;

/** What the project's issues may carry: its definition, or the empty one. */
export function projectFieldsOf(state: TrackerState, project: string): ProjectFields {
  return state.projectFields.get(project) ?? NO_PROJECT_FIELDS;
}

/** An issue's fields after `changes`, checked against its project's definition. */
export function checkedFields(
  state: TrackerState,
  project: string,
  current: IssueFieldValues | undefined,
  changes: Readonly<Record<string, unknown>>,
): IssueFieldValues | undefined {
  return applyFieldChanges(project, projectFieldsOf(state, project), current, changes);
}

/** The edit of an issue's fields, whole (one issue.edited record), or null when nothing changes. */
export function planFieldsEdit(state: TrackerState, key: string, changes: Readonly<Record<string, unknown>>): RecordDraft | null {
  const issue = requireIssue(state, key);
  const fields = checkedFields(state, issue.project, issue.fields, changes);
  if (JSON.stringify(fields) === JSON.stringify(issue.fields)) return null;
  return { type: 'issue.edited', key, from: { fields: issue.fields ?? null }, to: { fields: fields ?? null } };
}

/**
 * A project's new definition: the parts given replace the old ones, the others stay. A value an issue holds must stay allowed:
 * removing a component, a version, an option or a field some issue uses is refused with those
 * issues, never left dangling (clear the values first with update_issue).
 */
export function planDefineFields(
  state: TrackerState,
  project: string,
  input: Readonly<Record<string, unknown>>,
): RecordDraft | null {
  requireProject(state, project);
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const fields = parseProjectFields({ ...projectFieldsOf(state, project), ...given });
  if (JSON.stringify(fields) === JSON.stringify(projectFieldsOf(state, project))) return null;
  const orphaned: string[] = [];
  for (const key of state.issueKeysByProject.get(project) ?? []) {
    const values = state.issues.get(key)?.fields;
    if (values === undefined) continue;
    const refused = valuesNotAllowed(fields, values);
    if (refused.length > 0) orphaned.push(`${key} (${refused.join('; ')})`);
  }
  if (orphaned.length > 0) {
    const more = orphaned.length > NAMED_MAX ? ` and ${orphaned.length - NAMED_MAX} more` : '';
    throw domainError(
      'conflict',
      `The new definition of ${project}'s fields would leave values it no longer allows on ${orphaned.length} issue(s): ` +
        `${orphaned.slice(0, NAMED_MAX).join(', ')}${more}. Keep them in the definition, or change those issues first (update_issue fields).`,
    );
  }
  return { type: 'project.fields_defined', project, fields };
}
