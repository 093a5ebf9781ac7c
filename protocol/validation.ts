// Tier 2 of validation: one zod parse of a method's params (tier 1, the envelope, is
// hand-written in json-rpc.ts). We use `zod/mini`: the same schemas and types as full zod,
// at a tenth of the bundle size and start-up cost.
//
// A failure is -32602 Invalid params with a one-line message; the issues go in `data`.
// Never -32603, and never a pretty-printed ZodError as the message (the SDK's bug, TS #2284).

import type * as z from 'zod/mini';
import { ECHO_MAX_ITEMS, excerpt, excerpts, invalidParams } from './errors.js';
import { QUICK_CHECKS } from './schemas.js';

type Issue = z.core.$ZodIssue;

export function parseOrThrow<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  // The usual shapes of the busiest params skip zod (see QUICK_CHECKS).
  if (QUICK_CHECKS.get(schema)?.(value)) return value as T;
  // reportInput lets us tell "missing" from "wrong type"; the inputs never leave this file.
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw invalidParams(`Invalid params for ${what}: ${describeIssues(parsed.error.issues)}`, {
    issues: parsed.error.issues.slice(0, ECHO_MAX_ITEMS).map((issue) => ({ path: pathOf(issue), problem: describeIssue(issue) })),
  });
}

/**
 * The first issues, one clause each, on one line: "name: expected string; level: expected one of a, b".
 * Params with thousands of bad members have thousands of issues; the first few say enough.
 */
export function describeIssues(issues: readonly Issue[]): string {
  const clauses = issues.slice(0, ECHO_MAX_ITEMS).map((issue) => `${pathOf(issue) || 'value'}: ${describeIssue(issue)}`);
  if (issues.length > ECHO_MAX_ITEMS) clauses.push(`and ${issues.length - ECHO_MAX_ITEMS} more`);
  return clauses.join('; ');
}

/** A path may hold the client's own keys, so it is quoted as an excerpt. */
const pathOf = (issue: Issue): string => excerpt(issue.path.map(String).join('.'));

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `required ${issue.expected}` : `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${excerpts(issue.keys).join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}
