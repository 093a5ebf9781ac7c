// The issue tools that only read: search_issues and get_issue (annotations: tools.ts).
//
// Their usual answers are made once per store snapshot while they stay in a cache: issues and
// search pages are frozen and replaced on every change (the store keeps a page until the next
// change), so asking again costs a lookup, not a new result and its JSON.

import * as z from 'zod/mini';
import { type ToolDefinition, type ToolResult, structuredResult } from '../../protocol/tools.js';
import { LIMITS, PAGE_LIMIT_MAX, type Issue, type Page, type TrackerStore } from '../store/index.js';
import { described } from './described.js';
import { domain } from './domain-errors.js';
import { issueSummary } from './resource-reads.js';
import { issueUri } from './resource-uris.js';
import { createSnapshotCache } from './snapshot-cache.js';
import { AttachmentSummarySchema, attachmentBlock, attachmentSummary } from './attachments.js';
import { HistorySchema, IncludeSchema, LinkedSchema, issueExtras } from './issue-views.js';
import { COMMENTS_SHOWN, PartialIssueSchema, checkedFields, commentPage, pickFields } from './issue-fields.js';
import { KEY, IssueSummarySchema, link } from './issue-line.js';
import { PRIORITY_WORDS, STATUS_WORDS, clampedInteger, integerWithin } from './vocabulary.js';

const optional = <T extends z.ZodMiniType>(schema: T, description: string) => described(z.optional(schema), description);

/** How much result text each cache keeps. */
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

export function searchIssuesTool(store: TrackerStore): ToolDefinition {
  return {
    name: 'search_issues',
    title: 'Search issues',
    description:
      'Finds issues by a JQL query or by filters and words (all must occur in title, description or comments), ' +
      'in key order unless the query says ORDER BY (ready: most urgent first), a page at a time.',
    input: z.strictObject({
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
}

interface IssueAsked {
  fields?: string[];
  comments_before?: number;
  include?: string[];
  attachment?: string;
}

export function getIssueTool(store: TrackerStore): ToolDefinition {
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
  // Transitions and links live beside the issue; a change to either gives it a new snapshot,
  // so a result kept for a snapshot stays true.
  // Attachments too: one added gives the issue a new snapshot.
  const issueResults = createSnapshotCache(
    (issue: Issue) => structuredResult(issueOutput(issue), [link(issue)]),
    textLength,
    RESULT_CACHE_CHARS,
  );
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

  return {
    name: 'get_issue',
    title: 'Get issue',
    description:
      `Returns one issue with its newest ${COMMENTS_SHOWN} comments, the statuses it can move to, its links ` +
      'and attachments.',
    input: z.strictObject({
      key: KEY,
      fields: optional(z.array(z.string()), 'Only these, e.g. ["status","comments"]; default all.'),
      comments_before: optional(integerWithin(2, LIMITS.commentsPerIssueReadMax), `Comment id: the ${COMMENTS_SHOWN} before it.`),
      include: optional(IncludeSchema, 'history: who changed what, when; links: linked issues with their status.'),
      attachment: optional(z.string(), 'An attachment to return too (images as image content).'),
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
}
