// Reading an export document (snapshot.ts) back into an empty store: `mcp-tracker import
// FILE.json`. Each thing is written with the values it had, through the same store commands as
// a CSV import, so the store checks it as it checks every command.
import { domainError, isDomainError } from '../model/errors.js';
import type { Person } from '../model/person.js';
import type { Issue } from '../model/schema.js';
import type { TrackerSnapshot } from '../model/snapshot-format.js';
import { compareStrings, issueNumber } from '../state/state.js';
import type { TrackerStore } from '../store-api.js';

export interface SnapshotImport {
  readonly projects: number;
  readonly sprints: number;
  readonly issues: number;
  readonly links: number;
  readonly attachments: number;
  readonly people: number;
}

/** Writes the snapshot into a store that holds nothing yet. */
export async function importSnapshot(store: TrackerStore, snapshot: TrackerSnapshot): Promise<SnapshotImport> {
  const present = store.listProjects();
  if (present.length > 0) {
    throw domainError(
      'conflict',
      `A JSON export goes into an empty store; ${store.path} holds projects ${present.map((p) => p.key).join(', ')}. Nothing was imported.`,
    );
  }
  // First: projects' leads, issues' people and comments' authors are their handles.
  const people = snapshot.people ?? [];
  for (const [index, person] of people.entries()) await savePersonAt(store, person, index);
  for (const project of snapshot.projects) await store.importProject(project);
  for (const { project, workflow } of snapshot.workflows ?? []) await store.setWorkflow(project, workflow);
  for (const sprint of snapshot.sprints) await store.importSprint(sprint);
  // Before the issues, whose values they allow.
  for (const { project, fields } of snapshot.fields ?? []) await store.defineFields(project, fields);
  const issues = [...snapshot.issues].sort(byProjectThenNumber);
  for (const issue of issues) {
    const created = await store.importIssue({ ...issue, parent: null });
    if (created.key !== issue.key)
      throw domainError('conflict', `${issue.key} was imported as ${created.key}: the export repeats or reorders keys.`);
  }
  // Parents in a second pass: an epic may have a higher number than its children.
  for (const issue of issues) if (issue.parent) await store.linkIssues(issue.key, 'parent', issue.parent);
  for (const link of snapshot.links) await store.linkIssues(link.from, link.type, link.to);
  const attachments = snapshot.attachments ?? [];
  for (const { key, attachment } of attachments) await store.importAttachment(key, attachment);
  return {
    projects: snapshot.projects.length,
    sprints: snapshot.sprints.length,
    issues: issues.length,
    links: snapshot.links.length,
    attachments: attachments.length,
    people: people.length,
  };
}

/** A person through the store's own command; a refusal says which entry of the file it is. */
async function savePersonAt(store: TrackerStore, person: Person, index: number): Promise<void> {
  try {
    await store.savePerson(person);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    throw domainError(error.code, `people.${index} (${person.handle}): ${error.message}`);
  }
}

function byProjectThenNumber(a: Issue, b: Issue): number {
  return compareStrings(a.project, b.project) || issueNumber(a.key) - issueNumber(b.key);
}
