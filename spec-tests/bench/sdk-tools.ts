// The tracker's tools for the SDK peers, in full zod, registered with McpServer.registerTool.
// Input and output shapes mirror lib/tracker/tools.ts; handlers call the same store and
// return the same results (structured content, the same JSON as text, a resource link).
// Both SDKs register tools alike, but v1 takes a shape of zod fields where v2 takes a
// z.object: each peer passes a ToolRegistrar that makes the difference (sdk-tracker.ts,
// sdk2-tracker.ts).

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  ISSUE_TYPES,
  LIMITS,
  PRIORITIES,
  SPRINT_LIMITS,
  RESOLUTIONS,
  STATUSES,
  isDomainError,
  type CommentMutation,
  type Issue,
  type IssueMutation,
  type SprintMutation,
  type TrackerStore,
} from '../../lib/store/index.js';
import { attachmentBlock, attachmentSummary } from '../../lib/tracker/attachments.js';
import { issueExtras } from '../../lib/tracker/issue-views.js';
import { defaultProject, issueSummary } from '../../lib/tracker/resource-reads.js';
import { TEMPLATES, issueUri } from '../../lib/tracker/resource-uris.js';
import { computedSummary } from '../../lib/tracker/tools-sprints.js';

const statusEnum = z.enum(STATUSES as unknown as [string, ...string[]]);
const priorityEnum = z.enum(PRIORITIES as unknown as [string, ...string[]]);
const key = z.string().describe('Issue key, e.g. PROJ-101.');
const status = statusEnum.describe(`One of: ${STATUSES.join(', ')}.`);

const comment = z.object({ id: z.number().int(), author: z.string(), body: z.string(), created_at: z.string() });
const issue = z.object({
  key: z.string(),
  project: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.string(),
  status: z.string(),
  priority: z.string(),
  assignee: z.string().nullable(),
  reporter: z.string(),
  story_points: z.number().int().nullable(),
  sprint: z.string().nullable(),
  labels: z.array(z.string()),
  comments: z.array(comment),
  created_at: z.string(),
  updated_at: z.string(),
});
const issueOutput = { issue, uri: z.string() };
const mutationOutput = { issue, uri: z.string(), changed: z.boolean(), change: z.string() };
const commentOutput = {
  comment,
  issue: z.object({ key: z.string(), title: z.string(), status: z.string(), comment_count: z.number().int() }),
  uri: z.string(),
  changed: z.boolean(),
  change: z.string(),
};
const summary = z.object({
  key: z.string(),
  title: z.string(),
  type: z.string(),
  status: z.string(),
  priority: z.string(),
  assignee: z.string().nullable(),
  story_points: z.number().nullable(),
  sprint: z.string().nullable(),
  uri: z.string(),
});

const readOnly = { readOnlyHint: true, openWorldHint: false };
const overwrites = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
const adds = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

function structured(data: Record<string, unknown>, about?: Issue): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(data) }];
  if (about)
    content.push({
      type: 'resource_link',
      uri: issueUri(about.key),
      name: about.key,
      title: `${about.key}: ${about.title}`,
      mimeType: 'application/json',
    });
  return { content, structuredContent: data };
}

/** Domain errors become isError results with the store's message, as in lib/tracker. */
async function domain(work: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (isDomainError(error) || (error as { toolError?: boolean }).toolError === true)
      return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
    throw error;
  }
}

const mutation = (m: IssueMutation): CallToolResult =>
  structured(
    { issue: m.issue, uri: issueUri(m.issue.key), changed: m.change.issues.length > 0, change: m.change.description },
    m.issue,
  );

const commented = ({ issue, comment, change }: CommentMutation): CallToolResult =>
  structured(
    {
      comment,
      issue: { key: issue.key, title: issue.title, status: issue.status, comment_count: comment.id },
      uri: issueUri(issue.key),
      changed: true,
      change: change.description,
    },
    issue,
  );

export interface ToolConfig {
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  outputSchema: z.ZodRawShape;
  annotations: Record<string, boolean>;
}

/** The part of either SDK's McpServer this file uses. Arguments arrive parsed by the SDK; the signal is the request's. */
export interface ToolRegistrar {
  registerTool(name: string, config: ToolConfig, handler: (args: any, signal: AbortSignal) => Promise<CallToolResult>): void;
}

export function registerTools(server: ToolRegistrar, store: TrackerStore): void {
  server.registerTool(
    'create_issue',
    {
      title: 'Create issue',
      description:
        'Creates an issue in a project and returns it with its new key (PROJ-123). Only project and title are required; priority defaults to P2, type to task.',
      inputSchema: {
        project: z.string().describe('Project key, e.g. PROJ. See the jira://projects resource.'),
        title: z.string().describe('One line saying what is wrong or what to do.'),
        description: z.string().optional().describe('Details, steps to reproduce, acceptance criteria.'),
        type: z
          .enum(ISSUE_TYPES as unknown as [string, ...string[]])
          .optional()
          .describe(`One of: ${ISSUE_TYPES.join(', ')}.`),
        priority: priorityEnum.optional().describe('P0 (drop everything) to P3 (whenever).'),
        assignee: z.string().nullable().optional().describe('Handle of the person, e.g. alice; null or absent for unassigned.'),
        story_points: z.number().int().nullable().optional().describe('Estimate in story points, 0-100.'),
        sprint: z.string().nullable().optional().describe('Sprint id, e.g. PROJ-S42; absent for the backlog.'),
        labels: z.array(z.string()).optional().describe('Lower-case labels, e.g. ["checkout", "backend"].'),
        parent: z.string().optional().describe('Key of an epic this issue belongs to.'),
      },
      outputSchema: issueOutput,
      annotations: adds,
    },
    (args) =>
      domain(async () => {
        const created = (await store.createIssue(args)).issue;
        return structured({ issue: created, uri: issueUri(created.key) }, created);
      }),
  );

  server.registerTool(
    'get_issue',
    {
      title: 'Get issue',
      description:
        'Returns one issue with its comments (the resource jira://issue/{key}), the statuses it can move to, its links ' +
        'and attachments; with attachment, that file too (images as image content).',
      inputSchema: {
        key,
        include: z
          .array(z.enum(['history', 'links']))
          .optional()
          .describe('history: who changed what, when; links: linked issues with their status.'),
        attachment: z.string().optional().describe('An attachment name to return.'),
      },
      outputSchema: {
        ...issueOutput,
        transitions: z.array(z.string()),
        links: z.array(z.object({ type: z.string(), key: z.string() })),
        attachments: z
          .array(z.object({ name: z.string(), mimeType: z.string(), size: z.number().int(), uri: z.string() }))
          .optional(),
        attachment: z.object({ name: z.string(), mimeType: z.string(), size: z.number().int(), uri: z.string() }).optional(),
        history: z.record(z.string(), z.unknown()).optional(),
        linked: z.record(z.string(), z.unknown()).optional(),
      },
      annotations: readOnly,
    },
    (args) =>
      domain(() => {
        const found = store.getIssue(args.key);
        const transitions = [...store.getTransitions(found.key)];
        const links = [...store.getLinkKeys(found.key)];
        const attachments = store.getAttachments(found.key).map((info) => attachmentSummary(found.key, info));
        const data: Record<string, unknown> = {
          issue: found,
          uri: issueUri(found.key),
          transitions,
          links,
          ...(attachments.length > 0 ? { attachments } : {}),
          ...issueExtras(store, found.key, args.include ?? []),
        };
        if (args.attachment === undefined) return structured(data, found);
        data.attachment = attachmentSummary(found.key, store.getAttachment(found.key, args.attachment));
        const result = structured(data, found);
        result.content.push(attachmentBlock(store, found.key, args.attachment) as CallToolResult['content'][number]);
        return result;
      }),
  );

  server.registerTool(
    'update_issue',
    {
      title: 'Update issue',
      description:
        "Changes any of an issue's fields, assignee (null unassigns), sprint (null: backlog) and status, and can add a " +
        'comment, in one call. Status moves along the workflow: todo → in_progress → in_review → done, any open ↔ blocked, ' +
        'done → reopened; get_issue lists the allowed moves. Values it already has change nothing.',
      // Strings, as ours: the store's parsers forgive spellings such as "In Progress".
      inputSchema: {
        key,
        status: z
          .string()
          .optional()
          .describe(`One of: ${STATUSES.join(', ')}.`),
        resolution: z
          .string()
          .optional()
          .describe(`With status done: ${RESOLUTIONS.join(', ')}; default done.`),
        assignee: z.string().nullable().optional().describe('Handle, e.g. alice; null unassigns.'),
        sprint: z.string().nullable().optional().describe('Sprint id, e.g. PROJ-S43; null for the backlog.'),
        title: z.string().optional().describe('New title.'),
        description: z.string().optional().describe('New description.'),
        type: z
          .string()
          .optional()
          .describe(`One of: ${ISSUE_TYPES.join(', ')}.`),
        priority: z.string().optional().describe('P0 to P3.'),
        story_points: z.number().int().nullable().optional().describe('0-100; null for unestimated.'),
        labels: z.array(z.string()).optional().describe('The new list of labels.'),
        comment: z.string().optional().describe('A comment added after the changes.'),
      },
      outputSchema: mutationOutput,
      annotations: { ...overwrites, idempotentHint: false },
    },
    ({ key: issueKey, ...changes }) => domain(async () => mutation(await store.updateIssue(issueKey, changes))),
  );

  server.registerTool(
    'link_issues',
    {
      title: 'Link issues',
      description:
        'Links two issues: from blocks to, from relates_to to, from duplicates to, or parent (the epic `to` becomes ' +
        'the parent of `from`). remove: true takes the link away. See the resource jira://issue/{key}/links.',
      inputSchema: {
        from: key,
        type: z.string().describe('blocks, relates_to, duplicates or parent.'),
        to: key,
        remove: z.boolean().optional().describe('True to remove the link.'),
      },
      outputSchema: mutationOutput,
      annotations: overwrites,
    },
    (args) => domain(async () => mutation(await store.linkIssues(args.from, args.type, args.to, args.remove === true))),
  );

  server.registerTool(
    'add_comment',
    {
      title: 'Add comment',
      description: `Adds a comment to an issue and returns it with a summary of the issue. Each call adds another comment, up to ${LIMITS.commentsPerIssueMax} per issue.`,
      inputSchema: {
        key,
        body: z.string().describe(`The comment text, up to ${LIMITS.commentMax} characters.`),
        author: z.string().optional().describe('Handle of the author; default: assistant.'),
      },
      outputSchema: commentOutput,
      annotations: adds,
    },
    (args) => domain(async () => commented(await store.addComment(args.key, { body: args.body, author: args.author }))),
  );

  server.registerTool(
    'add_attachment',
    {
      title: 'Add attachment',
      description:
        `Attaches a file (base64) to an issue: up to ${LIMITS.attachmentBytesMax / 1024} KiB, ` +
        `${LIMITS.attachmentsPerIssueMax} per issue; names are unique and never replaced. ` +
        'get_issue with attachment reads it back.',
      inputSchema: {
        key: z.string().describe('Issue key, e.g. PROJ-101.'),
        name: z.string().describe('File name, e.g. screenshot.png: letters, digits, . _ -'),
        mimeType: z.string().describe('e.g. image/png, text/plain.'),
        content: z.string().describe('The file, base64.'),
      },
      outputSchema: {
        attachment: z.object({ name: z.string(), mimeType: z.string(), size: z.number().int(), uri: z.string() }),
        issue: z.object({ key: z.string(), title: z.string(), attachment_count: z.number().int() }),
        changed: z.boolean(),
        change: z.string(),
      },
      annotations: adds,
    },
    (args) =>
      domain(async () => {
        const { issue: owner, attachment, count, change } = await store.addAttachment(args.key, args);
        const summary = attachmentSummary(owner.key, attachment);
        const data = {
          attachment: summary,
          issue: { key: owner.key, title: owner.title, attachment_count: count },
          changed: true,
          change: change.description,
        };
        const content: CallToolResult['content'] = [
          { type: 'text', text: JSON.stringify(data) },
          {
            type: 'resource_link',
            uri: summary.uri,
            name: attachment.name,
            mimeType: attachment.mimeType,
            size: attachment.size,
          },
        ];
        return { content, structuredContent: data };
      }),
  );

  server.registerTool(
    'search_issues',
    {
      title: 'Search issues',
      description:
        'Finds issues by a JQL query or by filters and words (all must occur in title, description or comments), ' +
        'in key order unless the query says ORDER BY (ready: most urgent first), a page at a time. Pass next_cursor back as cursor for the next page.',
      inputSchema: {
        query: z
          .string()
          .optional()
          .describe(
            'JQL, e.g. project = PROJ AND status IN (todo, "In Progress") AND assignee = currentUser() ORDER BY priority, updated DESC. ' +
              'Fields: project status priority assignee reporter type sprint labels created updated text; ' +
              'operators = != IN NOT IN ~ < <= > >= IS EMPTY, AND OR NOT; functions currentUser() openSprints(); dates -7d. ' +
              'ANDed with the other filters.',
          ),
        project: z.string().optional().describe('Project key, e.g. PROJ.'),
        status: z
          .union([status, z.array(status)])
          .optional()
          .describe('A status or a list of them.'),
        priority: z
          .union([priorityEnum, z.array(priorityEnum)])
          .optional()
          .describe('A priority or a list of them.'),
        assignee: z.string().nullable().optional().describe('A handle; null for unassigned issues.'),
        sprint: z.string().nullable().optional().describe('A sprint id; null for the backlog.'),
        label: z.string().optional().describe('Issues carrying this label.'),
        ready: z
          .boolean()
          .optional()
          .describe('Only what to do next: open issues of active sprints whose blockers are done, most urgent first.'),
        text: z.string().optional().describe('Words to look for, case-insensitive.'),
        cursor: z.string().optional().describe('next_cursor of the previous page, same arguments.'),
        limit: z.number().int().optional().describe('Page size at most, 1-100; default 20.'),
      },
      outputSchema: {
        issues: z.array(summary),
        total: z.number().int(),
        next_cursor: z.string().optional(),
      },
      annotations: readOnly,
    },
    (args) =>
      domain(() => {
        const page = store.searchIssues(args);
        return structured({
          issues: page.items.map(issueSummary),
          total: page.total,
          ...(page.next_cursor === null ? {} : { next_cursor: page.next_cursor }),
        });
      }),
  );

  server.registerTool(
    'bulk_update_status',
    {
      title: 'Update status of many issues',
      description:
        'Sets one status on many issues, one at a time; each change is saved as it is made. Reports progress when asked and stops when cancelled, saying which issues were not attempted.',
      inputSchema: { keys: z.array(z.string()).describe('Issue keys, e.g. ["PROJ-101", "PROJ-102"].'), status },
      outputSchema: {
        results: z.array(
          z.object({
            key: z.string(),
            ok: z.boolean(),
            changed: z.boolean().optional(),
            description: z.string().optional(),
            error: z.string().optional(),
          }),
        ),
        changed: z.number().int(),
        failed: z.number().int(),
        not_attempted: z.array(z.string()),
        cancelled: z.boolean(),
      },
      annotations: overwrites,
    },
    (args, signal) =>
      domain(async () => {
        const result = await store.bulkUpdateStatus(args.keys, args.status, { signal });
        return structured({ ...result, results: [...result.results], not_attempted: [...result.not_attempted] });
      }),
  );

  // Ours asks the host's model only with prose: true (and a client that offers sampling); the benchmark never asks, so both compute.
  server.registerTool(
    'summarize_sprint',
    {
      title: 'Summarize sprint',
      description:
        "A sprint's numbers (default: the current one), its project's and its burndown, with a summary computed from them, or written by the host's model when prose is true.",
      inputSchema: {
        sprint: z.string().optional().describe('Sprint id, e.g. PROJ-S42; default: the active sprint of the project.'),
        project: z.string().optional().describe('Project key, e.g. PROJ; default: the first project.'),
        prose: z.boolean().optional().describe("true: the host's model writes the summary (sampling)."),
      },
      outputSchema: {
        sprint: z.string(),
        summary: z.string(),
        source: z.enum(['host_model', 'computed']),
        model: z.string().optional(),
        why_computed: z.string().optional(),
        stats: z.record(z.string(), z.unknown()),
        project_stats: z.record(z.string(), z.unknown()),
        burndown: z.array(z.record(z.string(), z.unknown())),
      },
      annotations: readOnly,
    },
    (args) =>
      domain(async () => {
        const stats = args.sprint
          ? store.getSprintStats(args.sprint)
          : store.getCurrentSprintStats(args.project ?? defaultProject(store) ?? '');
        const numbers = {
          stats,
          project_stats: store.getProjectStats(stats.project),
          burndown: [...store.getSprintBurndown(stats.sprint).points],
        };
        return structured({
          sprint: stats.sprint,
          summary: computedSummary(stats),
          source: 'computed',
          ...numbers,
        });
      }),
  );

  server.registerTool(
    'manage_sprint',
    {
      title: 'Manage sprint',
      description:
        'Creates a sprint (future), starts it (one active per project), closes the active one (its unfinished issues ' +
        'go to carry_to) or sets its goal.',
      inputSchema: {
        action: z.enum(['create', 'start', 'close', 'goal']),
        sprint: z.string().optional().describe('Sprint id, e.g. PROJ-S43; not for create.'),
        project: z.string().optional().describe('create: project key.'),
        name: z.string().optional().describe(`create: up to ${LIMITS.nameMax} characters.`),
        start_date: z.string().optional().describe('create: YYYY-MM-DD.'),
        end_date: z.string().optional().describe(`create: YYYY-MM-DD, at most ${SPRINT_LIMITS.sprintDaysMax} days on.`),
        goal: z.string().optional().describe(`create, goal: up to ${LIMITS.goalMax} characters.`),
        carry_to: z
          .string()
          .nullable()
          .optional()
          .describe('close: where unfinished issues go: a future sprint id, or null (backlog).'),
      },
      outputSchema: {
        sprint: z.record(z.string(), z.unknown()),
        uri: z.string(),
        changed: z.boolean(),
        change: z.string(),
        carried: z.array(z.string()),
        carried_to: z.string().nullable(),
      },
      annotations: { ...overwrites, idempotentHint: false },
    },
    (args) =>
      domain(async () => {
        const done = await manageSprint(store, args);
        return structured({
          sprint: done.sprint,
          uri: TEMPLATES.sprint.expand({ sprint_id: done.sprint.id }),
          changed: done.change.sprints.length > 0,
          change: done.change.description,
          carried: [...done.carried],
          carried_to: done.carried_to,
        });
      }),
  );
}

/** manage_sprint's actions, with the same messages as ours for what an action needs. */
function manageSprint(store: TrackerStore, args: Record<string, any>): Promise<SprintMutation> {
  const fail = (text: string): never => {
    throw Object.assign(new Error(text), { toolError: true });
  };
  if (args.action === 'create') {
    const needs = ['project', 'name', 'start_date', 'end_date'];
    const missing = needs.filter((field) => args[field] === undefined);
    if (missing.length > 0) fail(`create needs ${needs.join(', ')}; missing: ${missing.join(', ')}.`);
    return store.createSprint(args as Parameters<TrackerStore['createSprint']>[0]);
  }
  const id: string | undefined = args.sprint;
  if (id === undefined) return fail(`${args.action} needs sprint, e.g. "PROJ-S43".`);
  if (args.action === 'start') return store.startSprint(id);
  if (args.action === 'close') return store.closeSprint(id, args.carry_to);
  if (args.goal === undefined) fail('goal needs the new goal text in goal.');
  return store.setSprintGoal(id, args.goal);
}
