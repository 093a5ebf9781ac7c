// The whole tracker as one JSON document (`mcp-tracker export --format json`), and reading it
// back into an empty store (`mcp-tracker import FILE.json`, snapshot-import.ts).
//
// One array per kind of thing the tracker holds: projects, sprints, issues (each with its
// comments, resolution and parent epic), links (as written: `from` blocks `to`) and, when
// there are any, attachments (each with its issue's key, its bytes as base64), the fields
// projects defined (each issue carries its values in `fields`), the projects' own workflows
// (each before its project's issues on import: their statuses are its) and the people
// directory (on import before everything that names them). A new
// kind of record becomes a new array here, read by its own step in importSnapshot; what is
// already there does not change. A file with a field this version does not know is refused,
// naming the field, rather than imported without it (the format and its check: snapshot-format.ts).
//
// Export → import into an empty store → export gives the same document byte for byte: every
// array is in a stable order (keys ascending; people in the order the directory took them in,
// which importing keeps), and importing writes each thing with the
// values it had, through the same store commands as a CSV import.
//
// Reading a document back needs a store (snapshot-import.ts); making one needs only the state,
// so the store's own export stands below the store.
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type Issue, type LinkType } from '../model/schema.js';
import type { SnapshotLink, TrackerSnapshot } from '../model/snapshot-format.js';
import { compareStrings, sortedProjectKeys, sortedSprints, type TrackerState } from '../state/state.js';

export type { SnapshotLink, TrackerSnapshot } from '../model/snapshot-format.js';

/** Everything in the state, keys ascending (issues by project, then number). */
export function snapshotOf(state: TrackerState): TrackerSnapshot {
  const projects = sortedProjectKeys(state);
  const issues = projects.flatMap((project) =>
    (state.issueKeysByProject.get(project) ?? []).map((key) => state.issues.get(key) as Issue),
  );
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    projects: projects.map((key) => state.projects.get(key)!),
    sprints: sortedSprints(state),
    issues: issues.map(plainIssue),
    links: issues.flatMap((issue) => linksWrittenFrom(state, issue.key)),
    ...attachmentsOf(state, issues),
    ...fieldsOf(state, projects),
    ...workflowsOf(state, projects),
    ...peopleOf(state),
  };
}

/**
 * The people directory's entries (those only seen on a record have none), in the order the
 * directory took them in, not by handle: a handle that is an earlier person's alias was
 * accepted after that alias, and saved back in handle order its alias would be refused.
 */
function peopleOf(state: TrackerState): Pick<TrackerSnapshot, 'people'> {
  const people = [...state.directory.values()].map(({ handle, name, email, aliases }) => ({
    handle,
    name,
    email,
    aliases: [...aliases],
  }));
  return people.length === 0 ? {} : { people };
}

/** What each project defined of its fields, by project key; nothing when none defined any. */
function fieldsOf(state: TrackerState, projects: readonly string[]): Pick<TrackerSnapshot, 'fields'> {
  const fields = projects.flatMap((project) => {
    const defined = state.projectFields.get(project);
    return defined === undefined ? [] : [{ project, fields: defined }];
  });
  return fields.length === 0 ? {} : { fields };
}

/** The projects with a workflow of their own, with it. */
function workflowsOf(state: TrackerState, projects: readonly string[]): Pick<TrackerSnapshot, 'workflows'> {
  const workflows = projects.flatMap((project) => {
    const workflow = state.workflows.get(project);
    return workflow === undefined ? [] : [{ project, workflow }];
  });
  return workflows.length === 0 ? {} : { workflows };
}

/** Each issue's attachments in the order they were added, as their records carry them. */
function attachmentsOf(state: TrackerState, issues: readonly Issue[]): Pick<TrackerSnapshot, 'attachments'> {
  const attachments = issues.flatMap((issue) =>
    (state.attachments.get(issue.key) ?? []).map(({ name, mime_type, content, author, created_at }) => ({
      key: issue.key,
      attachment: { name, mime_type, content, author, created_at },
    })),
  );
  return attachments.length === 0 ? {} : { attachments };
}

/** The issue with its comments read out, its fields in the order the journal writes them. */
function plainIssue(issue: Issue): Issue {
  const { comments, ...fields } = issue;
  const { created_at, updated_at, ...rest } = fields;
  return {
    ...rest,
    resolution: issue.resolution ?? null,
    parent: issue.parent ?? null,
    comments: [...comments],
    created_at,
    updated_at,
  };
}

/**
 * The links this issue wrote. Each end of a link reads it (state.ts IssueLink); the reverse
 * readings are skipped, and relates_to, the same from both ends, is taken from the end whose
 * key sorts first, so each link is exported once.
 */
function linksWrittenFrom(state: TrackerState, key: string): SnapshotLink[] {
  const written: SnapshotLink[] = [];
  for (const link of state.links.get(key) ?? []) {
    if (link.type === 'is_blocked_by' || link.type === 'is_duplicated_by') continue;
    if (link.type === 'relates_to' && compareStrings(key, link.key) > 0) continue;
    written.push({ from: key, type: link.type as LinkType, to: link.key });
  }
  return written;
}
