// The export document's format (snapshot.ts) as a zod schema: the source of its types, and
// the check of a document read back by `mcp-tracker import FILE.json`. Apart from snapshot.ts
// because the server exports nothing and imports nothing: only the import and export
// commands (dist/mcp-tracker-io.mjs) import this file, so a server start does not build it.
import * as z from 'zod/mini';
import { domainError } from './errors.js';
import { PEOPLE_LIMITS, PERSON_SHAPE } from './person.js';
import {
  AttachmentSchema,
  IssueKeySchema,
  IssueSchema,
  LinkTypeSchema,
  ProjectFieldsSchema,
  ProjectKeySchema,
  ProjectSchema,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  SprintSchema,
} from './schema.js';
import { WorkflowSchema } from './workflow-schema.js';

export const SnapshotLinkSchema = z.strictObject({ from: IssueKeySchema, type: LinkTypeSchema, to: IssueKeySchema });
export type SnapshotLink = z.infer<typeof SnapshotLinkSchema>;

export const SnapshotAttachmentSchema = z.strictObject({ key: IssueKeySchema, attachment: AttachmentSchema });

export const SnapshotFieldsSchema = z.strictObject({ project: ProjectKeySchema, fields: ProjectFieldsSchema });

export const TrackerSnapshotSchema = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  projects: z.array(ProjectSchema),
  sprints: z.array(SprintSchema),
  issues: z.array(IssueSchema),
  links: z.array(SnapshotLinkSchema),
  /** Absent when there are none, so an export without attachments reads as before they existed. */
  attachments: z.optional(z.array(SnapshotAttachmentSchema)),
  /** The projects' own workflows (workflow.ts); absent when every project has the default. */
  workflows: z.optional(z.array(z.strictObject({ project: ProjectKeySchema, workflow: WorkflowSchema }))),
  /** Each project's components, versions and custom fields (model/fields.ts); absent when no project defined any. */
  fields: z.optional(z.array(SnapshotFieldsSchema)),
  /** The people directory (model/person.ts): names, e-mails, aliases; absent when it is empty. */
  people: z.optional(z.array(z.strictObject(PERSON_SHAPE)).check(z.maxLength(PEOPLE_LIMITS.peopleMax))),
});
export type TrackerSnapshot = z.infer<typeof TrackerSnapshotSchema>;

/** Checks a parsed JSON document against the format; the message names the first problem and where. */
export function parseSnapshot(value: unknown): TrackerSnapshot {
  const result = TrackerSnapshotSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length === 0 ? 'the document' : issue.path.join('.');
  const what =
    issue.code === 'unrecognized_keys'
      ? `${issue.path.length === 0 ? 'the document' : where} has a field it does not know: ${issue.keys.join(', ')}`
      : `at ${where}: ${issue.message}`;
  throw domainError('invalid_argument', `Not an mcp-tracker export this version can read: ${what}.`);
}
