// One vocabulary for every tool that takes a status, a priority or a type. The store's parsers
// forgive case, spaces and Jira's names (workflow.ts parseStatus: "In Progress", "To Do",
// "Closed"; args.ts parsePriority: "Highest".."Lowest", "Blocker"; parseIssueType: "Bug",
// "Story", "Sub-task"), so each schema takes a string and says so in a few words: an enum would
// refuse "In Progress" before the store could read it, and its list would cost the model's
// context on every turn (lib/tests/tools-budget.test.ts).
import * as z from 'zod/mini';
import { ISSUE_TYPES, STATUSES } from '../store/index.js';

export const STATUS_WORDS = `${STATUSES.join('|')}; any case, or Jira's ("In Progress")`;
export const PRIORITY_WORDS = "P0 (most urgent)-P3, or Jira's (High)";
export const TYPE_WORDS = `${ISSUE_TYPES.join('|')}, any case`;

/** An integer within `minimum`..`maximum`: JSON Schema's bounds, not zod's ±9007199254740991 for z.int(). */
export const integerWithin = (minimum: number, maximum: number) => z.int().check(z.minimum(minimum), z.maximum(maximum));

/**
 * An integer whose schema states `minimum`..`maximum`, of which the tool takes more and clamps
 * it (search_issues' limit): a client should send no more than the maximum; a model that does
 * gets the maximum and a note rather than an error.
 */
export function clampedInteger(minimum: number, maximum: number) {
  const schema = z.int().check(z.minimum(minimum));
  z.globalRegistry.add(schema, { maximum });
  return schema;
}
