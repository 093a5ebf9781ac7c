// The journal's header and records, and the fields an edit record carries, as zod schemas:
// the one source of truth for their types (imported from here, as types) and for what a valid
// journal line is. Opening a journal never runs them: the reader uses the hand check in
// record-check.ts, which store-record-check.test.ts holds to these schemas. So they live apart
// from schema.ts, and nothing in the server imports this file but its types: a start does not
// build them.
import * as z from 'zod/mini';
import {
  AttachmentSchema,
  CommentSchema,
  HandleSchema,
  IssueFieldsSchema,
  IssueKeySchema,
  IssueSchema,
  IssueTypeSchema,
  JOURNAL_FORMAT,
  LIMITS,
  LabelSchema,
  LinkTypeSchema,
  PrioritySchema,
  ProjectFieldsSchema,
  ProjectKeySchema,
  ProjectSchema,
  ResolutionSchema,
  SprintIdSchema,
  SprintSchema,
  StatusSchema,
  TimestampSchema,
  StoryPointsSchema,
} from './schema.js';
import { PersonSchema } from './person.js';
import { WorkflowSchema } from './workflow-schema.js';

/** The fields update_issue may change besides status, assignee and sprint (each has its own record). */
export const EditableFieldsSchema = z.object({
  title: z.optional(z.string().check(z.minLength(1), z.maxLength(LIMITS.titleMax))),
  description: z.optional(z.string().check(z.maxLength(LIMITS.descriptionMax))),
  type: z.optional(IssueTypeSchema),
  priority: z.optional(PrioritySchema),
  story_points: z.optional(z.nullable(StoryPointsSchema)),
  labels: z.optional(z.array(LabelSchema).check(z.maxLength(LIMITS.labelsMax))),
  /** The issue's fields as a whole (model/fields.ts); null when it has none. */
  fields: z.optional(z.nullable(IssueFieldsSchema)),
});
export type EditableFields = z.infer<typeof EditableFieldsSchema>;

export const JournalHeaderSchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  version: z.int().check(z.minimum(1)),
  created_at: TimestampSchema,
});
export type JournalHeader = z.infer<typeof JournalHeaderSchema>;

/**
 * Every record carries its position (seq = 1 for the line after the header) and time, and
 * who made the change (the store's actor: --user, else assistant); files written before `by`
 * lack it, and the seeded demo data has none.
 */
const recordBase = { seq: z.int().check(z.minimum(1)), at: TimestampSchema, by: z.optional(HandleSchema) };

export const JournalRecordSchema = z.discriminatedUnion('type', [
  z.object({ ...recordBase, type: z.literal('project.created'), project: ProjectSchema }),
  z.object({ ...recordBase, type: z.literal('sprint.created'), sprint: SprintSchema }),
  z.object({
    ...recordBase,
    type: z.literal('project.workflow_set'),
    project: ProjectKeySchema,
    /** The project's workflow from now on (workflow.ts); no issue of it may sit in a status it lacks. */
    workflow: WorkflowSchema,
    /** Where the issues in a status the workflow drops go, moved by this record: removed → kept. */
    mapping: z.optional(z.record(StatusSchema, StatusSchema)),
  }),
  /** What the project's issues may carry from now on (model/fields.ts), replacing what it defined before. */
  z.object({ ...recordBase, type: z.literal('project.fields_defined'), project: ProjectKeySchema, fields: ProjectFieldsSchema }),
  z.object({ ...recordBase, type: z.literal('issue.created'), issue: IssueSchema }),
  z.object({
    ...recordBase,
    type: z.literal('issue.status_changed'),
    key: IssueKeySchema,
    from: StatusSchema,
    to: StatusSchema,
    /** Only on a move to done (absent there in files written before resolutions: done). */
    resolution: z.optional(ResolutionSchema),
  }),
  z.object({
    ...recordBase,
    type: z.literal('issue.assigned'),
    key: IssueKeySchema,
    from: z.nullable(HandleSchema),
    to: z.nullable(HandleSchema),
  }),
  z.object({ ...recordBase, type: z.literal('issue.commented'), key: IssueKeySchema, comment: CommentSchema }),
  z.object({
    ...recordBase,
    type: z.literal('issue.sprint_changed'),
    key: IssueKeySchema,
    from: z.nullable(SprintIdSchema),
    to: z.nullable(SprintIdSchema),
  }),
  z.object({ ...recordBase, type: z.literal('issue.linked'), key: IssueKeySchema, link: LinkTypeSchema, to: IssueKeySchema }),
  z.object({ ...recordBase, type: z.literal('issue.unlinked'), key: IssueKeySchema, link: LinkTypeSchema, to: IssueKeySchema }),
  z.object({
    ...recordBase,
    type: z.literal('issue.parent_changed'),
    key: IssueKeySchema,
    from: z.nullable(IssueKeySchema),
    to: z.nullable(IssueKeySchema),
  }),
  z.object({
    ...recordBase,
    type: z.literal('issue.edited'),
    key: IssueKeySchema,
    /** The fields that changed, old and new values; the same keys in both. */
    from: EditableFieldsSchema,
    to: EditableFieldsSchema,
  }),
  z.object({ ...recordBase, type: z.literal('issue.attachment_added'), key: IssueKeySchema, attachment: AttachmentSchema }),
  z.object({ ...recordBase, type: z.literal('sprint.started'), id: SprintIdSchema }),
  z.object({
    ...recordBase,
    type: z.literal('sprint.closed'),
    id: SprintIdSchema,
    /** The unfinished issues, moved in the same record to `carried_to` (null: the backlog). */
    carried: z.array(IssueKeySchema),
    carried_to: z.nullable(SprintIdSchema),
  }),
  z.object({
    ...recordBase,
    type: z.literal('sprint.goal_changed'),
    id: SprintIdSchema,
    from: z.string().check(z.maxLength(LIMITS.goalMax)),
    to: z.string().check(z.maxLength(LIMITS.goalMax)),
  }),
  /** A person added to the directory, or their names changed: the whole entry as it is now. */
  z.object({ ...recordBase, type: z.literal('person.saved'), person: PersonSchema }),
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
export type RecordOf<T extends JournalRecord['type']> = Extract<JournalRecord, { type: T }>;
export type RecordType = JournalRecord['type'];

/** A record before the journal gives it a position and a time. */
export type RecordDraft = WithoutPosition<JournalRecord>;
// Distributes over the union, so each variant keeps its own fields.
type WithoutPosition<R> = R extends unknown ? Omit<R, 'seq' | 'at'> : never;
