// Tools: the verbs of the tracker, called when the model decides to. Some change data.
//
// Each tool has a title, an input schema (published as JSON Schema), an output schema with
// `structuredContent` (2025-06-18→; the engine strips it for older revisions) and honest
// annotations (https://modelcontextprotocol.io/specification/2025-11-25/server/tools; rule 7.5):
//   readOnlyHint     true only for get_issue, search_issues and summarize_sprint;
//   destructiveHint  true for tools that overwrite a field (status, assignee, sprint), false
//                    for tools that only add (create_issue, add_comment);
//   idempotentHint   true when repeating the call changes nothing more;
//   openWorldHint    false: the tracker is a closed world, its own data file.
//
// Domain errors (unknown issue, bad status) come from the store with a message that says
// how to fix the call; they become `isError: true` results the model can read.

import * as z from 'zod/mini';
import type { RequestContext } from '../../protocol/context.js';
import type { ContentBlock } from '../../protocol/content.js';
import { type ToolDefinition, type ToolResult, structuredResult } from '../../protocol/tools.js';
import {
  CommentSchema,
  LIMITS,
  PAGE_LIMIT_MAX,
  RESOLUTIONS,
  type CommentMutation,
  type Issue,
  type IssueMutation,
  type Page,
  type TrackerStore,
} from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';
import { issueSummary } from './resource-reads.js';
import { issueUri } from './resource-uris.js';
import { createSnapshotCache } from './snapshot-cache.js';
import { AttachmentSummarySchema, addAttachmentTool, attachmentBlock, attachmentSummary } from './attachments.js';
import { HistorySchema, IncludeSchema, LinkedSchema, issueExtras } from './issue-views.js';
import { sprintTools } from './tools-sprints.js';
import { defineFieldsTool } from './tools-fields.js';
import { COMMENTS_SHOWN, PartialIssueSchema, checkedFields, commentPage, pickFields } from './issue-fields.js';
import { PRIORITY_WORDS, STATUS_WORDS, TYPE_WORDS, clampedInteger, integerWithin } from './vocabulary.js';

const text = (description: string) => described(z.string(), description);
const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

const KEY = text('Issue key, e.g. PROJ-101.');
/** An issue's fields beyond the built-in ones (store model/fields.ts): one object, so two tools list it in few words. */
const FIELDS = optional(z.looseObject({}), 'due, components, fix_versions, custom fields by name; null clears one.');
const STORY_POINTS = `0-${LIMITS.storyPointsMax}`;

/**
 * A write answers with what changed and a line about the issue as it is now, not the whole
 * issue, whose description and comments would repeat on every change.
 */
const IssueLineSchema = z.object({
  key: z.string(),
  title: z.string(),
  type: z.string(),
  status: z.string(),
  priority: z.string(),
  assignee: z.nullable(z.string()),
  story_points: z.nullable(z.number()),
  sprint: z.nullable(z.string()),
});
/** What a search lists of each issue: its line and where to read it whole. */
const IssueSummarySchema = z.extend(IssueLineSchema, { uri: z.string() });
const issueLine = ({ key, title, type, status, priority, assignee, story_points, sprint }: Issue) => ({
  key,
  title,
  type,
  status,
  priority,
  assignee,
  story_points,
  sprint,
});
const CreateOutput = z.object({ issue: IssueLineSchema, uri: z.string() });
const MutationOutput = z.object({ issue: IssueLineSchema, uri: z.string(), changed: z.boolean(), change: z.string() });
/**
 * add_comment answers with what it added and a line about the issue, not the whole issue,
 * whose comments would make every answer grow with every call.
 */
const CommentOutput = z.object({
  comment: CommentSchema,
  issue: z.object({ key: z.string(), title: z.string(), status: z.string(), comment_count: z.int() }),
  uri: z.string(),
  changed: z.boolean(),
  change: z.string(),
});

const link = (issue: Issue): ContentBlock => ({
  type: 'resource_link',
  uri: issueUri(issue.key),
  name: issue.key,
  title: `${issue.key}: ${issue.title}`,
  mimeType: 'application/json',
});

/**
 * A change, as a tool result, logged to the client on the request that made it: in 2026-07-28
 * logs exist only for a request that asked for them (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging).
 */
function mutationResult(mutation: IssueMutation, context: RequestContext) {
  const changed = mutation.change.issues.length > 0;
  if (changed) context.log('info', { change: mutation.change.description, issues: mutation.change.issues }, 'tracker');
  return structuredResult(
    { issue: issueLine(mutation.issue), uri: issueUri(mutation.issue.key), changed, change: mutation.change.description },
    [link(mutation.issue)],
  );
}

function commentResult({ issue, comment, change }: CommentMutation, context: RequestContext) {
  context.log('info', { change: change.description, issues: change.issues }, 'tracker');
  // Comment ids run 1, 2, 3... and none is ever removed: the newest id is the count.
  const summary = { key: issue.key, title: issue.title, status: issue.status, comment_count: comment.id };
  return structuredResult({ comment, issue: summary, uri: issueUri(issue.key), changed: true, change: change.description }, [
    link(issue),
  ]);
}

/**
 * Read-only tools' results, made once per store snapshot while they stay in the cache:
 * issues and search pages are frozen and replaced on every change (the store keeps a page
 * until the next change), so asking again costs a lookup, not a new result and its JSON.
 */
const RESULT_CACHE_CHARS = 8 * 1024 * 1024;
const textLength = (result: ToolResult): number => (result.content[0]?.type === 'text' ? result.content[0].text.length : 0);

/** A page of search results, each issue as `shown`; a note when the call asked for what it did not get. */
function pageResult(page: Page<Issue>, shown: (issue: Issue) => Record<string, unknown>, note?: string): ToolResult {
  return structuredResult({
    issues: page.items.map(shown),
    total: page.total,
    // Absent on the last page, as nextCursor is (protocol/pagination.ts).
    ...(page.next_cursor === null ? {} : { next_cursor: page.next_cursor }),
    ...(note === undefined ? {} : { note }),
  });
}

const searchResults = createSnapshotCache((page: Page<Issue>) => pageResult(page, issueSummary), textLength, RESULT_CACHE_CHARS, {
  onSecondUse: true,
});

export function trackerTools(store: TrackerStore): ToolDefinition[] {
  // Transitions and links live beside the issue; a change to either gives it a new snapshot,
  // so a result kept for a snapshot stays true.
  // Attachments too: one added gives the issue a new snapshot.
  /** get_issue's answer: the fields asked for (all by default), a page of comments among them. */
  const issueOutput = (issue: Issue, fields?: readonly (keyof Issue)[], before?: number): Record<string, unknown> => {
    const shown: Record<string, unknown> = fields === undefined ? { ...issue } : pickFields(issue, fields);
    const comments = fields === undefined || fields.includes('comments') ? commentPage(issue, before) : undefined;
    if (comments !== undefined) shown.comments = comments.comments;
    const attachments = store.getAttachments(issue.key).map((info) => attachmentSummary(issue.key, info));
    return {
      issue: shown,
      ...(comments === undefined ? {} : { comments_total: comments.total }),
      ...(comments?.older === undefined ? {} : { older_comments: comments.older }),
      uri: issueUri(issue.key),
      transitions: [...store.getTransitions(issue.key)],
      links: [...store.getLinkKeys(issue.key)],
      ...(attachments.length > 0 ? { attachments } : {}),
    };
  };
  const issueResults = createSnapshotCache(
    (issue: Issue) => structuredResult(issueOutput(issue), [link(issue)]),
    textLength,
    RESULT_CACHE_CHARS,
  );
  interface IssueAsked {
    fields?: string[];
    comments_before?: number;
    include?: string[];
    attachment?: string;
  }
  /**
   * get_issue with a choice, made on each call: some fields, an older page of comments, the
   * history, the linked issues' statuses (which change without this issue changing), and an
   * attachment as content the host can show.
   */
  const asAsked = (issue: Issue, asked: IssueAsked) => {
    const fields = asked.fields === undefined ? undefined : checkedFields(asked.fields);
    const output = {
      ...issueOutput(issue, fields, asked.comments_before),
      ...issueExtras(store, issue.key, asked.include ?? []),
    };
    const name = asked.attachment;
    if (name === undefined) return structuredResult(output, [link(issue)]);
    const block = attachmentBlock(store, issue.key, name);
    const attachment = attachmentSummary(issue.key, store.getAttachment(issue.key, name));
    return structuredResult({ ...output, attachment }, [link(issue), block]);
  };

  const createIssue: ToolDefinition = {
    name: 'create_issue',
    title: 'Create issue',
    description: 'Creates an issue, reported by you, and returns its key (PROJ-123). Priority defaults to P2, type to task.',
    input: z.object({
      project: text('Project key, e.g. PROJ (jira://projects).'),
      title: text('One line saying what is wrong or what to do.'),
      description: optional(z.string(), 'Details, steps to reproduce, acceptance criteria.'),
      type: optional(z.string(), TYPE_WORDS),
      priority: optional(z.string(), PRIORITY_WORDS),
      assignee: optional(z.nullable(z.string()), 'Handle, name or e-mail (jira://people); absent: unassigned.'),
      story_points: optional(z.nullable(z.number().check(z.minimum(0), z.maximum(LIMITS.storyPointsMax))), STORY_POINTS),
      sprint: optional(z.nullable(z.string()), 'Sprint id, e.g. PROJ-S42; absent for the backlog.'),
      labels: optional(z.array(z.string()), 'Lower-case labels, e.g. ["checkout", "backend"].'),
      parent: optional(z.string(), 'Key of its epic, or of the issue it is a sub-task of.'),
      fields: FIELDS,
    }),
    output: CreateOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    // 2026-07-28: a call without a project or title asks the user with a form (MRTR) instead of failing.
    ask: {
      message: 'A new issue needs a project and a one-line title.',
      fields: {
        project: {
          type: 'string',
          title: 'Project',
          description: 'Project key, e.g. PROJ.',
          enum: store.listProjects().map((p) => p.key),
        },
        title: { type: 'string', title: 'Title', description: 'One line saying what is wrong or what to do.' },
      },
    },
    run: (args, context) =>
      domain(async () => {
        const { issue, change } = await store.createIssue(args);
        context.log('info', { change: change.description, issues: change.issues }, 'tracker');
        return structuredResult({ issue: issueLine(issue), uri: issueUri(issue.key) }, [link(issue)]);
      }),
  };

  const getIssue: ToolDefinition = {
    name: 'get_issue',
    title: 'Get issue',
    description:
      `Returns one issue with its newest ${COMMENTS_SHOWN} comments, the statuses it can move to, its links ` +
      'and attachments; with attachment, that file too (images as image content).',
    input: z.object({
      key: KEY,
      fields: optional(z.array(z.string()), 'Only these, e.g. ["status","comments"]; default all.'),
      comments_before: optional(integerWithin(2, LIMITS.commentsPerIssueReadMax), `Comment id: the ${COMMENTS_SHOWN} before it.`),
      include: optional(IncludeSchema, 'history: who changed what, when; links: linked issues with their status.'),
      attachment: optional(z.string(), 'An attachment name to return.'),
    }),
    output: z.object({
      issue: PartialIssueSchema,
      comments_total: z.optional(z.int()),
      older_comments: z.optional(z.int()),
      uri: z.string(),
      transitions: z.array(z.string()),
      links: z.array(z.object({ type: z.string(), key: z.string() })),
      attachments: z.optional(z.array(AttachmentSummarySchema)),
      attachment: z.optional(AttachmentSummarySchema),
      history: z.optional(HistorySchema),
      linked: z.optional(LinkedSchema),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args) =>
      domain(() => {
        const issue = store.getIssue(args.key);
        const { key: _key, ...asked } = args;
        if (Object.values(asked).every((value) => value === undefined)) return issueResults.get(issue);
        return asAsked(issue, asked);
      }),
  };

  const updateIssue: ToolDefinition = {
    name: 'update_issue',
    title: 'Update issue',
    description:
      "Changes any of an issue's fields, assignee, sprint and status, and can add a " +
      "comment, in one call. Status moves along the project's workflow, by default todo → in_progress → in_review → done, any open ↔ blocked " +
      'or → done with a resolution, done → reopened; get_issue lists the allowed moves. Values it already has change nothing.',
    input: z.object({
      key: KEY,
      status: optional(z.string(), STATUS_WORDS),
      resolution: optional(z.string(), `With status done: ${RESOLUTIONS.join(', ')}; default done.`),
      assignee: optional(z.nullable(z.string()), 'Handle, name or e-mail; null unassigns.'),
      sprint: optional(z.nullable(z.string()), 'Sprint id, e.g. PROJ-S43; null for the backlog.'),
      title: optional(z.string(), 'New title.'),
      description: optional(z.string(), 'New description.'),
      type: optional(z.string(), TYPE_WORDS),
      priority: optional(z.string(), PRIORITY_WORDS),
      story_points: optional(
        z.nullable(z.number().check(z.minimum(0), z.maximum(LIMITS.storyPointsMax))),
        `${STORY_POINTS}; null for unestimated.`,
      ),
      labels: optional(z.array(z.string()), 'The new list of labels.'),
      fields: FIELDS,
      comment: optional(z.string(), 'Your comment, added after the changes.'),
    }),
    output: MutationOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: ({ key, ...changes }, context) => domain(async () => mutationResult(await store.updateIssue(key, changes), context)),
  };

  const linkIssues: ToolDefinition = {
    name: 'link_issues',
    title: 'Link issues',
    description:
      'Links two issues: from blocks to, from relates_to to, from duplicates to, or parent (`to`, an epic or ' +
      'an issue, becomes the parent of `from`). remove: true takes the link away.',
    input: z.object({
      from: KEY,
      type: text('blocks, relates_to, duplicates or parent.'),
      to: KEY,
      remove: optional(z.boolean(), 'True to remove the link.'),
    }),
    output: MutationOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: (args, context) =>
      domain(async () => mutationResult(await store.linkIssues(args.from, args.type, args.to, args.remove === true), context)),
  };

  const addComment: ToolDefinition = {
    name: 'add_comment',
    title: 'Add comment',
    description: `Adds your comment to an issue; each call adds one, up to ${LIMITS.commentsPerIssueMax} per issue.`,
    input: z.object({
      key: KEY,
      body: text(`The comment text, up to ${LIMITS.commentMax} characters.`),
    }),
    output: CommentOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => domain(async () => commentResult(await store.addComment(args.key, { body: args.body }), context)),
  };

  const searchIssues: ToolDefinition = {
    name: 'search_issues',
    title: 'Search issues',
    description:
      'Finds issues by a JQL query or by filters and words (all must occur in title, description or comments), ' +
      'in key order unless the query says ORDER BY (ready: most urgent first), a page at a time.',
    input: z.object({
      query: optional(
        z.string(),
        'JQL, e.g. project = PROJ AND status IN (todo, "In Progress") AND assignee = currentUser() ORDER BY priority, updated DESC. ' +
          'Fields: project status priority assignee reporter type sprint labels created updated text due component fixVersion "Custom Name"; ' +
          'operators = != IN NOT IN ~ < <= > >= IS EMPTY, AND OR NOT; functions currentUser() openSprints(); dates -7d. ' +
          'ANDed with the other filters.',
      ),
      project: optional(z.string(), 'Project key, e.g. PROJ.'),
      status: optional(z.union([z.string(), z.array(z.string())]), `${STATUS_WORDS}, or a list.`),
      priority: optional(z.union([z.string(), z.array(z.string())]), `${PRIORITY_WORDS}, or a list.`),
      assignee: optional(z.nullable(z.string()), 'A handle; null for unassigned issues.'),
      sprint: optional(z.nullable(z.string()), 'A sprint id; null for the backlog.'),
      label: optional(z.string(), 'Issues carrying this label.'),
      ready: optional(
        z.boolean(),
        'Only what to do next: open issues of active sprints whose blockers are done, most urgent first.',
      ),
      text: optional(
        z.string(),
        `Words to look for, case-insensitive: up to ${LIMITS.searchWordsMax} different words, ${LIMITS.searchTextMax} characters.`,
      ),
      fields: optional(z.array(z.string()), 'Fields per issue instead of the summary, e.g. ["status","labels"].'),
      cursor: optional(z.string(), 'next_cursor of the previous page, same arguments.'),
      limit: optional(clampedInteger(1, PAGE_LIMIT_MAX), 'Page size, default 20; more than the maximum is clamped.'),
    }),
    output: z.object({
      issues: z.array(z.union([IssueSummarySchema, PartialIssueSchema])),
      total: z.int(),
      next_cursor: z.optional(z.string()),
      note: z.optional(z.string()),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    // Most searches are answered without a pause (store.ts searchIssuesYielding), and so is their result.
    run: ({ fields: asked, ...args }) =>
      domain(() => {
        const fields = asked === undefined ? undefined : checkedFields(asked, ['comments']);
        const clamped = args.limit !== undefined && args.limit > PAGE_LIMIT_MAX;
        const page = store.searchIssuesYielding(clamped ? { ...args, limit: PAGE_LIMIT_MAX } : args);
        // The usual search, from the cache; one with fields or a clamped limit, made for it.
        const result = (found: Page<Issue>) => {
          if (fields === undefined && !clamped) return searchResults.get(found);
          const note = clamped ? `limit ${args.limit} is past the most a page holds: ${PAGE_LIMIT_MAX} shown.` : undefined;
          return pageResult(found, fields === undefined ? issueSummary : (issue) => pickFields(issue, fields), note);
        };
        return page instanceof Promise ? page.then(result) : result(page);
      }),
  };

  const bulkUpdateStatus: ToolDefinition = {
    name: 'bulk_update_status',
    title: 'Update status of many issues',
    description:
      'Sets one status on many issues, one at a time; each change is saved as it is made. ' +
      'Reports progress when asked and stops when cancelled, saying which issues were not attempted.',
    input: z.object({
      keys: described(z.array(z.string()), 'Issue keys, e.g. ["PROJ-101", "PROJ-102"].'),
      status: text(STATUS_WORDS),
    }),
    output: z.object({
      results: z.array(
        z.object({
          key: z.string(),
          ok: z.boolean(),
          changed: z.optional(z.boolean()),
          description: z.optional(z.string()),
          error: z.optional(z.string()),
        }),
      ),
      changed: z.int(),
      failed: z.int(),
      not_attempted: z.array(z.string()),
      cancelled: z.boolean(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    // A task for a 2026-07-28 client that can take one (protocol/tasks.ts): the host polls it,
    // cancels it, or reads its result after a reconnect; its progress is the task's statusMessage.
    task: 'optional',
    run: (args, context: RequestContext) =>
      domain(async () => {
        const result = await store.bulkUpdateStatus(args.keys, args.status, {
          signal: context.signal,
          onProgress: (done, total) => context.progress(done, total, `${done} of ${total} issues updated`),
        });
        context.log(
          'info',
          { change: `bulk status ${args.status}: ${result.changed} changed, ${result.failed} failed` },
          'tracker',
        );
        return structuredResult({ ...result, results: [...result.results], not_attempted: [...result.not_attempted] });
      }),
  };

  return [
    searchIssues,
    getIssue,
    createIssue,
    updateIssue,
    bulkUpdateStatus,
    addComment,
    addAttachmentTool(store, domain),
    linkIssues,
    ...sprintTools(store),
    defineFieldsTool(store),
  ];
}
