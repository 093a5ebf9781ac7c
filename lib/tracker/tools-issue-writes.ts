// The issue tools that change data: create_issue, update_issue, link_issues, add_comment and
// bulk_update_status (annotations: tools.ts). Each answers with what changed and a line about
// the issue, and logs the change to the client on the request that made it.

import * as z from 'zod/mini';
import type { RequestContext } from '../../protocol/context.js';
import { type ToolDefinition, structuredResult } from '../../protocol/tools.js';
import {
  CommentSchema,
  LIMITS,
  RESOLUTIONS,
  type CommentMutation,
  type IssueMutation,
  type TrackerStore,
} from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';
import { issueUri } from './resource-uris.js';
import { KEY, IssueLineSchema, issueLine, link } from './issue-line.js';
import { PRIORITY_WORDS, STATUS_WORDS, TYPE_WORDS } from './vocabulary.js';

const text = (description: string) => described(z.string(), description);
const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

/** An issue's fields beyond the built-in ones (store model/fields.ts): one object, so two tools list it in few words. */
const FIELDS = optional(z.looseObject({}), 'due, components, fix_versions, custom fields by name; null clears one.');
const STORY_POINTS = `0-${LIMITS.storyPointsMax}`;

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

export function createIssueTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'create_issue',
    title: 'Create issue',
    description: 'Creates an issue, reported by you, and returns its key (PROJ-123). Priority defaults to P2, type to task.',
    input: z.strictObject({
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
}

export function updateIssueTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'update_issue',
    title: 'Update issue',
    description:
      "Changes any of an issue's fields, assignee, sprint and status, and can add a comment, in one call. " +
      "Status moves along the project's workflow; get_issue lists the allowed moves. Values it already has change nothing.",
    input: z.strictObject({
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
}

export function bulkUpdateStatusTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'bulk_update_status',
    title: 'Update status of many issues',
    description:
      'Sets one status on many issues, one at a time; each change is saved as it is made. ' +
      'Once cancelled, it says which issues were not attempted.',
    input: z.strictObject({
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
        const told = (done: number, total: number) => context.progress(done, total, `${done} of ${total} issues updated`);
        // Said before the first write, which may wait for the store's commands to load: a task
        // cancelled meanwhile still says how far the work went ("0 of N"), and a progress bar starts.
        told(0, args.keys.length);
        const result = await store.bulkUpdateStatus(args.keys, args.status, { signal: context.signal, onProgress: told });
        context.log(
          'info',
          { change: `bulk status ${args.status}: ${result.changed} changed, ${result.failed} failed` },
          'tracker',
        );
        return structuredResult({ ...result, results: [...result.results], not_attempted: [...result.not_attempted] });
      }),
  };
}

export function addCommentTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'add_comment',
    title: 'Add comment',
    description: `Adds your comment to an issue; each call adds one, up to ${LIMITS.commentsPerIssueMax} per issue.`,
    input: z.strictObject({
      key: KEY,
      body: text(`The comment text, up to ${LIMITS.commentMax} characters.`),
    }),
    output: CommentOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => domain(async () => commentResult(await store.addComment(args.key, { body: args.body }), context)),
  };
}

export function linkIssuesTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'link_issues',
    title: 'Link issues',
    description:
      'Links two issues: from blocks to, from relates_to to, from duplicates to, or parent (`to`, an epic or ' +
      'an issue, becomes the parent of `from`).',
    input: z.strictObject({
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
}
