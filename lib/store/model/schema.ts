// The tracker's domain model and journal records, as zod schemas.
//
// These schemas (with the journal's records in record-schema.ts) are the one source of truth
// for the types (z.infer) and for what a valid journal line is. They use `zod/mini`, the tree-shakable form
// of zod 4: the same schemas at a tenth of the bundle size. Opening a large journal
// through zod is slow (docs/performance.md), so the journal reader uses a hand-written
// check (record-check.ts) built from the same patterns, limits and enums exported
// here; a property test keeps the two in agreement.
import * as z from 'zod/mini';

// ---------------------------------------------------------------------------
// Patterns and limits (shared with record-check.ts and args.ts)
// ---------------------------------------------------------------------------

export const PROJECT_KEY_PATTERN = /^[A-Z][A-Z0-9]{1,9}$/;
export const ISSUE_KEY_PATTERN = /^[A-Z][A-Z0-9]{1,9}-[1-9][0-9]*$/;
/** Sprint ids are scoped to a project: `PROJ-S42`. */
export const SPRINT_ID_PATTERN = /^[A-Z][A-Z0-9]{1,9}-S[1-9][0-9]*$/;
/** People are lower-case handles (`alice`, `dmitri.k`), never free text. */
export const HANDLE_PATTERN = /^[a-z][a-z0-9._-]{0,31}$/;
export const LABEL_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** Exactly what Date.prototype.toISOString() produces, so timestamps sort as strings. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Sprint dates are calendar days (UTC). */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/**
 * An attachment's name is the last segment of its URI (jira://issue/K/attachment/NAME): only
 * characters a URI carries as they are, starting with a letter or digit (so never "." or "..").
 */
export const ATTACHMENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** type/subtype in lower case (RFC 6838 names), without parameters. */
export const MIME_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;
/**
 * Standard base64 (RFC 4648 section 4) with its padding, no line breaks, at least one byte;
 * its length must also be a multiple of 4 (isBase64). A character class, not groups of four:
 * a quantified group backtracks through a stack that a few megabytes of text overflow.
 */
export const BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A custom field's name, an option of a select field, a component or a version: printable
 * text that starts with a letter or digit, without quotes or commas, so JQL can name it
 * (`"Story Type" = Research`, `component IN (api, "Web UI")`).
 */
export const FIELD_NAME_PATTERN = /^[\p{L}\p{N}][^\p{Cc}"',]{0,59}$/u;

export const LIMITS = {
  /**
   * Issue numbers stay well inside Number.MAX_SAFE_INTEGER: past 2^53, `number + 1` is no
   * longer exact and the next key repeats an existing one. Enforced on every key read or written.
   */
  maxIssueNumber: 999_999_999,
  /** Long enough for any valid key; checked before the regex so huge inputs are cheap to reject. */
  maxKeyLength: 24,
  titleMax: 200,
  descriptionMax: 10_000,
  commentMax: 10_000,
  /** Comments one issue may be given: its answer (get_issue, its resource) stays under ~10 MB of text. */
  commentsPerIssueMax: 1_000,
  /**
   * Comments per issue a journal may hold when it is read (or an import may bring). Larger than
   * the cap on adding so a file written before the cap (or by another version) still opens; past
   * it the file is reported, never rewritten. It bounds one issue's share of memory, not the
   * file's. And it agrees with the longest string Node can make (2^29 - 24 characters): every
   * text made of one issue (its resource text, encoded again as a JSON string; its snapshot
   * entry; its fingerprint's JSON) must fit in one, or the issue could be stored but never read
   * nor snapshotted. At most ISSUE_TEXT_PER_COMMENT_MAX characters a comment, 5,000 comments
   * make 355 million (issue 30: 60,000 comments under the old 100,000 made RangeError).
   */
  commentsPerIssueReadMax: 5_000,
  /** search_issues text, in characters, checked before it is split into words. */
  searchTextMax: 1_000,
  /** Distinct words in one search: each is looked for in every issue the other filters leave. */
  searchWordsMax: 20,
  nameMax: 100,
  goalMax: 500,
  projectDescriptionMax: 2_000,
  labelsMax: 10,
  storyPointsMax: 100,
  /** A project's workflow (workflow.ts): its statuses, a status's name, its resolutions. */
  workflowStatusesMax: 30,
  statusNameMax: 40,
  workflowResolutionsMax: 20,
  /**
   * One attachment, decoded. Its base64 text (4 characters per 3 bytes) is one journal record,
   * so this keeps the record well under maxRecordBytes.
   */
  attachmentBytesMax: 524_288,
  /** Attachments one issue may be given: get_issue lists them all. */
  attachmentsPerIssueMax: 20,
  /**
   * Decoded bytes of all attachments together: they live in memory beside the state, and a
   * PostgreSQL replica reads records in batches whose size this bounds.
   */
  attachmentStoreBytesMax: 33_554_432,
  /**
   * One journal line, in bytes, its "\n" not counted. The largest record a command writes
   * (an issue with a 10,000 character description, every character escaped as \uXXXX) is
   * under 64 KiB; the reader holds at most two lines of this size at a time, whatever the
   * size of the file.
   */
  maxRecordBytes: 1_048_576,
  /**
   * The data file, in bytes: a write that would take it past this is refused (nothing is
   * written, reads go on). Reading has no size limit (the file is read in chunks), but the
   * whole history is replayed into memory, about twice the file's size, and Node's default heap
   * is at most 4 GiB: past this limit a file could no longer be opened.
   */
  maxJournalBytes: 536_870_912,
  /** Custom fields one project may define (issue 33). */
  customFieldsMax: 30,
  /** Options of one select field, and components or versions of one project. */
  fieldOptionsMax: 100,
  /** Values of one multi-select field, components or fix versions on one issue. */
  fieldValuesMax: 20,
  /** One text field's value, in characters. */
  fieldTextMax: 1_000,
} as const;

/**
 * The most characters one comment can take in any text made of its issue: every character of its
 * body and author escaped as \u00XX (6), then encoded again as a JSON string (7), and its other
 * fields (id, created_at, indentation), 200 at most.
 */
export const ISSUE_TEXT_PER_COMMENT_MAX = 7 * (LIMITS.commentMax + LIMITS.nameMax) + 200;

/** False when the number in `PROJ-123` is above LIMITS.maxIssueNumber. */
export function issueNumberWithinLimit(key: string): boolean {
  return Number(key.slice(key.lastIndexOf('-') + 1)) <= LIMITS.maxIssueNumber;
}
export const ISSUE_NUMBER_TOO_LARGE = `the issue number is above the limit of ${LIMITS.maxIssueNumber}`;

// ---------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------

/**
 * A status or a resolution: an id in lower case (`code_review`), as a project's workflow names
 * it (workflow.ts). The default workflow's are STATUSES and RESOLUTIONS.
 */
export const WORKFLOW_ID_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;
export const StatusSchema = z.string().check(z.regex(WORKFLOW_ID_PATTERN));
/** Why an issue is done; set on the move to a done status, cleared on reopening. */
export const ResolutionSchema = z.string().check(z.regex(WORKFLOW_ID_PATTERN));
export const PrioritySchema = z.enum(['P0', 'P1', 'P2', 'P3']);
export const IssueTypeSchema = z.enum(['bug', 'story', 'task', 'epic']);
export const SprintStateSchema = z.enum(['active', 'closed', 'future']);
/**
 * How one issue relates to another, as written (`A blocks B`); the other end reads it
 * backwards (`B is blocked by A`). relates_to reads the same both ways.
 */
export const LinkTypeSchema = z.enum(['blocks', 'relates_to', 'duplicates']);

/** What a project's custom field holds (Jira's number, text, date, select list and multi-select). */
export const FieldTypeSchema = z.enum(['number', 'text', 'date', 'select', 'multiselect']);

export type Status = string;
export type Resolution = string;
export type Priority = z.infer<typeof PrioritySchema>;
export type IssueType = z.infer<typeof IssueTypeSchema>;
export type SprintState = z.infer<typeof SprintStateSchema>;
export type LinkType = z.infer<typeof LinkTypeSchema>;
export type FieldType = z.infer<typeof FieldTypeSchema>;

/** The default workflow's statuses (workflow.ts), in its order: every project without a workflow of its own. */
export const STATUSES: readonly Status[] = ['todo', 'in_progress', 'in_review', 'blocked', 'done', 'reopened'];
/** The default workflow's resolutions (Jira's default ones). */
export const RESOLUTIONS: readonly Resolution[] = ['done', 'wont_do', 'duplicate', 'cannot_reproduce'];
export const PRIORITIES: readonly Priority[] = PrioritySchema.options;
export const ISSUE_TYPES: readonly IssueType[] = IssueTypeSchema.options;
export const SPRINT_STATES: readonly SprintState[] = SprintStateSchema.options;
export const LINK_TYPES: readonly LinkType[] = LinkTypeSchema.options;
export const FIELD_TYPES: readonly FieldType[] = FieldTypeSchema.options;

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

export const ProjectKeySchema = z.string().check(z.regex(PROJECT_KEY_PATTERN));
export const IssueKeySchema = z
  .string()
  .check(
    z.maxLength(LIMITS.maxKeyLength),
    z.regex(ISSUE_KEY_PATTERN),
    z.refine(issueNumberWithinLimit, { error: ISSUE_NUMBER_TOO_LARGE }),
  );
export const SprintIdSchema = z.string().check(z.maxLength(LIMITS.maxKeyLength), z.regex(SPRINT_ID_PATTERN));
/** Story points as Jira keeps them: decimals too (0.5, 3.5), to the hundredth. */
export const isStoryPoints = (value: number): boolean =>
  Number.isFinite(value) && value >= 0 && value <= LIMITS.storyPointsMax && Number(value.toFixed(2)) === value;
export const StoryPointsSchema = z.number().check(z.refine(isStoryPoints));
export const HandleSchema = z.string().check(z.regex(HANDLE_PATTERN));
export const LabelSchema = z.string().check(z.regex(LABEL_PATTERN));
export const TimestampSchema = z.string().check(z.regex(TIMESTAMP_PATTERN));
export const DateSchema = z.string().check(z.regex(DATE_PATTERN));

// ---------------------------------------------------------------------------
// Entities. Objects handed out by the store are frozen: callers share them.
// ---------------------------------------------------------------------------

export const ProjectSchema = z.readonly(
  z.object({
    key: ProjectKeySchema,
    name: z.string().check(z.minLength(1), z.maxLength(LIMITS.nameMax)),
    description: z.string().check(z.maxLength(LIMITS.projectDescriptionMax)),
    lead: HandleSchema,
  }),
);
export type Project = z.infer<typeof ProjectSchema>;

export const SprintSchema = z.readonly(
  z.object({
    id: SprintIdSchema,
    name: z.string().check(z.minLength(1), z.maxLength(LIMITS.nameMax)),
    project: ProjectKeySchema,
    state: SprintStateSchema,
    start_date: DateSchema,
    end_date: DateSchema,
    goal: z.string().check(z.maxLength(LIMITS.goalMax)),
  }),
);
export type Sprint = z.infer<typeof SprintSchema>;

export const CommentSchema = z.readonly(
  z.object({
    /** 1, 2, 3... within the issue. */
    id: z.int().check(z.minimum(1)),
    author: HandleSchema,
    body: z.string().check(z.minLength(1), z.maxLength(LIMITS.commentMax)),
    created_at: TimestampSchema,
  }),
);
export type Comment = z.infer<typeof CommentSchema>;

/**
 * The base64 text of at most LIMITS.attachmentBytesMax bytes, rounded up to whole groups of
 * four: a record may carry up to two bytes more than add_attachment accepts, never more.
 */
export const ATTACHMENT_BASE64_MAX = Math.ceil(LIMITS.attachmentBytesMax / 3) * 4;

export function isBase64(content: string): boolean {
  return content.length % 4 === 0 && BASE64_PATTERN.test(content);
}
export const NOT_BASE64 = 'is not base64 (RFC 4648: A-Z a-z 0-9 + /, padded with = to a multiple of 4 characters)';

/** Decoded bytes of base64 text that isBase64 accepts. */
export function base64Bytes(content: string): number {
  const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
  return (content.length / 4) * 3 - padding;
}

/** A file added to an issue, as its record carries it. Never removed or replaced. */
export const AttachmentSchema = z.readonly(
  z.object({
    name: z.string().check(z.regex(ATTACHMENT_NAME_PATTERN)),
    mime_type: z.string().check(z.regex(MIME_TYPE_PATTERN)),
    /** Checked for length before the pattern, so a huge value is cheap to refuse. */
    content: z.string().check(z.maxLength(ATTACHMENT_BASE64_MAX), z.refine(isBase64, { error: NOT_BASE64 })),
    author: HandleSchema,
    created_at: TimestampSchema,
  }),
);
export type Attachment = z.infer<typeof AttachmentSchema>;

export const FieldNameSchema = z.string().check(z.regex(FIELD_NAME_PATTERN));

/**
 * A field a project defines for its issues. Select fields list their options; the other types
 * have none. Names are unique in the project, whatever their case.
 */
export const FieldDefinitionSchema = z.readonly(
  z.object({
    name: FieldNameSchema,
    type: FieldTypeSchema,
    options: z.optional(z.readonly(z.array(FieldNameSchema).check(z.maxLength(LIMITS.fieldOptionsMax)))),
  }),
);
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;

/** What a project lets its issues carry beyond the built-in fields: its components, versions and custom fields. */
export const ProjectFieldsSchema = z.readonly(
  z.object({
    components: z.readonly(z.array(FieldNameSchema).check(z.maxLength(LIMITS.fieldOptionsMax))),
    versions: z.readonly(z.array(FieldNameSchema).check(z.maxLength(LIMITS.fieldOptionsMax))),
    custom: z.readonly(z.array(FieldDefinitionSchema).check(z.maxLength(LIMITS.customFieldsMax))),
  }),
);
export type ProjectFields = z.infer<typeof ProjectFieldsSchema>;

/**
 * One value an issue holds in `fields`: a number, a text or a calendar day (a date field, the
 * due date), an option of a select field, or a list (a multi-select field, components, fix versions).
 */
export const FieldValueSchema = z.union([
  z.number().check(z.refine(Number.isFinite)),
  z.string().check(z.minLength(1), z.maxLength(LIMITS.fieldTextMax)),
  z.readonly(z.array(FieldNameSchema).check(z.minLength(1), z.maxLength(LIMITS.fieldValuesMax))),
]);
export type FieldValue = z.infer<typeof FieldValueSchema>;

/**
 * An issue's fields beyond the built-in ones (model/fields.ts says what each name may hold):
 * `due`, `components`, `fix_versions` and the project's custom fields by name, in name order;
 * a field without a value is absent, and so is the whole object when none has one.
 */
export const IssueFieldsSchema = z.readonly(
  z
    .record(FieldNameSchema, FieldValueSchema)
    .check(z.refine((fields) => Object.keys(fields).length <= LIMITS.customFieldsMax + 3)),
);
export type IssueFieldValues = z.infer<typeof IssueFieldsSchema>;

export const IssueSchema = z.readonly(
  z.object({
    key: IssueKeySchema,
    project: ProjectKeySchema,
    title: z.string().check(z.minLength(1), z.maxLength(LIMITS.titleMax)),
    description: z.string().check(z.maxLength(LIMITS.descriptionMax)),
    type: IssueTypeSchema,
    status: StatusSchema,
    priority: PrioritySchema,
    assignee: z.nullable(HandleSchema),
    reporter: HandleSchema,
    story_points: z.nullable(StoryPointsSchema),
    sprint: z.nullable(SprintIdSchema),
    labels: z.readonly(z.array(LabelSchema).check(z.maxLength(LIMITS.labelsMax))),
    /** Set while the issue is done. Optional in the journal: files written before resolutions lack it. */
    resolution: z.optional(z.nullable(ResolutionSchema)),
    /** The key of the epic this issue belongs to. Optional in the journal, as resolution. */
    parent: z.optional(z.nullable(IssueKeySchema)),
    /** Due date, components, fix versions, custom fields (absent when none is set). Optional in the journal, as resolution. */
    fields: z.optional(IssueFieldsSchema),
    comments: z.readonly(z.array(CommentSchema).check(z.maxLength(LIMITS.commentsPerIssueReadMax))),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Issue = z.infer<typeof IssueSchema>;

// ---------------------------------------------------------------------------
// Journal: a header line, then one record per line.
// ---------------------------------------------------------------------------

export const JOURNAL_FORMAT = 'mcp-tracker';
export const JOURNAL_VERSION = 1;

/** The export document's (snapshot.ts, snapshot-format.ts). */
export const SNAPSHOT_FORMAT = 'mcp-tracker-export';
export const SNAPSHOT_VERSION = 1;
