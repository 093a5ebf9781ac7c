// What a read returns of an issue: the `fields` asked for (get_issue, search_issues), and
// get_issue's comments a page at a time, newest first: a model reads what it asked for, not
// every comment of a long thread on every call.
import * as z from 'zod/mini';
import { ToolError } from '../../protocol/tools.js';
import { type Comment, type Issue, IssueSchema } from '../store/index.js';

export const ISSUE_FIELDS = Object.keys(IssueSchema._zod.def.innerType.shape) as (keyof Issue)[];

/** Comments one get_issue answer shows; `comments_before` pages back through the rest. */
export const COMMENTS_SHOWN = 20;

/** An issue with some of its fields: key always, the others as asked. */
export const PartialIssueSchema = z.extend(z.partial(IssueSchema._zod.def.innerType), { key: z.string() });

/** The fields asked for, checked: an unknown name is refused with the list, never ignored. */
export function checkedFields(fields: readonly string[], refused: readonly string[] = []): (keyof Issue)[] {
  const known = ISSUE_FIELDS.filter((field) => !refused.includes(field));
  const unknown = fields.filter((field) => !(known as string[]).includes(field));
  if (unknown.length > 0) throw new ToolError(`Unknown field ${unknown.join(', ')}. Fields: ${known.join(', ')}.`);
  return fields as (keyof Issue)[];
}

export function pickFields(issue: Issue, fields: readonly (keyof Issue)[]): Record<string, unknown> {
  const picked: Record<string, unknown> = { key: issue.key };
  for (const field of fields) picked[field] = issue[field];
  return picked;
}

/**
 * A page of the issue's comments: the COMMENTS_SHOWN before the comment `before` (ids run 1, 2,
 * 3... and none is removed, so an id is a place), the newest by default, oldest first within the
 * page as the issue keeps them. `older` is the id to pass as comments_before for the page before.
 */
export function commentPage(issue: Issue, before?: number): { comments: Comment[]; total: number; older?: number } {
  const total = issue.comments.length;
  const end = Math.min(before === undefined ? total : before - 1, total);
  const start = Math.max(0, end - COMMENTS_SHOWN);
  const comments = issue.comments.slice(start, end);
  return start > 0 ? { comments, total, older: start + 1 } : { comments, total };
}
