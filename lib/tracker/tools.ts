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
  ISSUE_TYPES,
  IssueSchema,
  LIMITS,
  PRIORITIES,
  RESOLUTIONS,
  STATUSES,
  type CommentMutation,
  type Issue,
  type IssueMutation,
  type Page,
  type TrackerStore,
} from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';
import { issueSummary, issueUri } from './resources.js';
import { createSnapshotCache } from './snapshot-cache.js';
import { AttachmentSummarySchema, addAttachmentTool, attachmentBlock, attachmentSummary } from './attachments.js';
import { HistorySchema, IncludeSchema, LinkedSchema, issueExtras } from './issue-views.js';
import { sprintTools } from './tools-sprints.js';

const text = (description: string) => described(z.string(), description);
const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

const KEY = text('Issue key, e.g. PROJ-101.');
// A string, not an enum: the store's parser forgives "In Progress" and "in-progress", which
// an enum in the input schema would refuse before the store could read them.
const STATUS = text(`One of: ${STATUSES.join(', ')} ("In Progress" works too).`);
const PRIORITY = z.enum(PRIORITIES as [string, ...string[]]);

const IssueSummarySchema = z.object({
  key: z.string(),
  title: z.string(),
  type: z.string(),
  status: z.string(),
  priority: z.string(),
  assignee: z.nullable(z.string()),
  story_points: z.nullable(z.number()),
  sprint: z.nullable(z.string()),
  uri: z.string(),
});
const IssueOutput = z.object({ issue: IssueSchema, uri: z.string() });
const MutationOutput = z.object({ issue: IssueSchema, uri: z.string(), changed: z.boolean(), change: z.string() });
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
    { issue: mutation.issue, uri: issueUri(mutation.issue.key), changed, change: mutation.change.description },
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

const searchResults = createSnapshotCache(
  (page: Page<Issue>) =>
    structuredResult({
      issues: page.items.map(issueSummary),
      total: page.total,
      // Absent on the last page, as nextCursor is (protocol/pagination.ts).
      ...(page.next_cursor === null ? {} : { next_cursor: page.next_cursor }),
    }),
  textLength,
  RESULT_CACHE_CHARS,
  { onSecondUse: true },
);

export function trackerTools(store: TrackerStore): ToolDefinition[] {
  // Transitions and links live beside the issue; a change to either gives it a new snapshot,
  // so a result kept for a snapshot stays true.
  // Attachments too: one added gives the issue a new snapshot.
  const issueOutput = (issue: Issue): Record<string, unknown> => {
    const attachments = store.getAttachments(issue.key).map((info) => attachmentSummary(issue.key, info));
    return {
      issue,
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
  /**
   * get_issue with extras, made on each call: the history, the linked issues' statuses (which
   * change without this issue changing), and an attachment as content the host can show.
   */
  const withExtras = (issue: Issue, include: readonly string[], name: string | undefined) => {
    const output = { ...issueOutput(issue), ...issueExtras(store, issue.key, include) };
    if (name === undefined) return structuredResult(output, [link(issue)]);
    const block = attachmentBlock(store, issue.key, name);
    const attachment = attachmentSummary(issue.key, store.getAttachment(issue.key, name));
    return structuredResult({ ...output, attachment }, [link(issue), block]);
  };

  const createIssue: ToolDefinition = {
    name: 'create_issue',
    title: 'Create issue',
    description:
      'Creates an issue in a project and returns it with its new key (PROJ-123). ' +
      'Only project and title are required; priority defaults to P2, type to task.',
    input: z.object({
      project: text('Project key, e.g. PROJ. See the jira://projects resource.'),
      title: text('One line saying what is wrong or what to do.'),
      description: optional(z.string(), 'Details, steps to reproduce, acceptance criteria.'),
      type: optional(z.enum(ISSUE_TYPES as [string, ...string[]]), `One of: ${ISSUE_TYPES.join(', ')}.`),
      priority: optional(PRIORITY, 'P0 (drop everything) to P3 (whenever).'),
      assignee: optional(z.nullable(z.string()), 'Handle of the person, e.g. alice; null or absent for unassigned.'),
      story_points: optional(z.nullable(z.int()), 'Estimate in story points, 0-100.'),
      sprint: optional(z.nullable(z.string()), 'Sprint id, e.g. PROJ-S42; absent for the backlog.'),
      labels: optional(z.array(z.string()), 'Lower-case labels, e.g. ["checkout", "backend"].'),
      parent: optional(z.string(), 'Key of an epic this issue belongs to.'),
    }),
    output: IssueOutput,
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
        return structuredResult({ issue, uri: issueUri(issue.key) }, [link(issue)]);
      }),
  };

  const getIssue: ToolDefinition = {
    name: 'get_issue',
    title: 'Get issue',
    description:
      'Returns one issue with its comments (the resource jira://issue/{key}), the statuses it can move to, its links ' +
      'and attachments; with attachment, that file too (images as image content).',
    input: z.object({
      key: KEY,
      include: optional(IncludeSchema, 'history: who changed what, when; links: linked issues with their status.'),
      attachment: optional(z.string(), 'An attachment name to return.'),
    }),
    output: z.object({
      ...IssueOutput.shape,
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
        const include = args.include ?? [];
        if (include.length === 0 && args.attachment === undefined) return issueResults.get(issue);
        return withExtras(issue, include, args.attachment);
      }),
  };

  const updateIssue: ToolDefinition = {
    name: 'update_issue',
    title: 'Update issue',
    description:
      "Changes any of an issue's fields, assignee (null unassigns), sprint (null: backlog) and status, and can add a " +
      'comment, in one call. Status moves along the workflow: todo → in_progress → in_review → done, any open ↔ blocked, ' +
      'done → reopened; get_issue lists the allowed moves. Values it already has change nothing.',
    input: z.object({
      key: KEY,
      status: optional(STATUS, `One of: ${STATUSES.join(', ')}.`),
      resolution: optional(z.string(), `With status done: ${RESOLUTIONS.join(', ')}; default done.`),
      assignee: optional(z.nullable(z.string()), 'Handle, e.g. alice; null unassigns.'),
      sprint: optional(z.nullable(z.string()), 'Sprint id, e.g. PROJ-S43; null for the backlog.'),
      title: optional(z.string(), 'New title.'),
      description: optional(z.string(), 'New description.'),
      type: optional(z.string(), `One of: ${ISSUE_TYPES.join(', ')}.`),
      priority: optional(z.string(), 'P0 to P3.'),
      story_points: optional(z.nullable(z.int()), '0-100; null for unestimated.'),
      labels: optional(z.array(z.string()), 'The new list of labels.'),
      comment: optional(z.string(), 'A comment added after the changes.'),
    }),
    output: MutationOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: ({ key, ...changes }, context) => domain(async () => mutationResult(await store.updateIssue(key, changes), context)),
  };

  const linkIssues: ToolDefinition = {
    name: 'link_issues',
    title: 'Link issues',
    description:
      'Links two issues: from blocks to, from relates_to to, from duplicates to, or parent (the epic `to` becomes ' +
      'the parent of `from`). remove: true takes the link away. See the resource jira://issue/{key}/links.',
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
    description:
      'Adds a comment to an issue and returns it with a summary of the issue. Each call adds another comment, ' +
      `up to ${LIMITS.commentsPerIssueMax} per issue.`,
    input: z.object({
      key: KEY,
      body: text(`The comment text, up to ${LIMITS.commentMax} characters.`),
      author: optional(z.string(), 'Handle of the author; default: assistant.'),
    }),
    output: CommentOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) =>
      domain(async () => commentResult(await store.addComment(args.key, { body: args.body, author: args.author }), context)),
  };

  const searchIssues: ToolDefinition = {
    name: 'search_issues',
    title: 'Search issues',
    description:
      'Finds issues by a JQL query or by filters and words (all must occur in title, description or comments), ' +
      'in key order unless the query says ORDER BY (ready: most urgent first), a page at a time. Pass next_cursor back as cursor for the next page.',
    input: z.object({
      query: optional(
        z.string(),
        'JQL, e.g. project = PROJ AND status IN (todo, "In Progress") AND assignee = currentUser() ORDER BY priority, updated DESC. ' +
          'Fields: project status priority assignee reporter type sprint labels created updated text; ' +
          'operators = != IN NOT IN ~ < <= > >= IS EMPTY, AND OR NOT; functions currentUser() openSprints(); dates -7d. ' +
          'ANDed with the other filters.',
      ),
      project: optional(z.string(), 'Project key, e.g. PROJ.'),
      status: optional(z.union([STATUS, z.array(STATUS)]), 'A status or a list of them.'),
      priority: optional(z.union([PRIORITY, z.array(PRIORITY)]), 'A priority or a list of them.'),
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
      cursor: optional(z.string(), 'next_cursor of the previous page, same arguments.'),
      limit: optional(z.int(), 'Page size at most, 1-100; default 20.'),
    }),
    output: z.object({ issues: z.array(IssueSummarySchema), total: z.int(), next_cursor: z.optional(z.string()) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    // Most searches are answered without a pause (store.ts searchIssuesYielding), and so is their result.
    run: (args) =>
      domain(() => {
        const page = store.searchIssuesYielding(args);
        return page instanceof Promise ? page.then((late) => searchResults.get(late)) : searchResults.get(page);
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
      status: STATUS,
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
  ];
}
