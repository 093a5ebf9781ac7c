// How the issue tools name and point to an issue: its key as an argument, its line (what a
// write answers with; a search lists it with its URI) and a resource_link to its resource.

import * as z from 'zod/mini';
import type { ContentBlock } from '../../protocol/content.js';
import type { Issue } from '../store/index.js';
import { described } from './described.js';
import { issueUri } from './resource-uris.js';

export const KEY = described(z.string(), 'Issue key, e.g. PROJ-101.');

/**
 * A write answers with what changed and a line about the issue as it is now, not the whole
 * issue, whose description and comments would repeat on every change.
 */
export const IssueLineSchema = z.object({
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
export const IssueSummarySchema = z.extend(IssueLineSchema, { uri: z.string() });
export const issueLine = ({ key, title, type, status, priority, assignee, story_points, sprint }: Issue) => ({
  key,
  title,
  type,
  status,
  priority,
  assignee,
  story_points,
  sprint,
});

export const link = (issue: Issue): ContentBlock => ({
  type: 'resource_link',
  uri: issueUri(issue.key),
  name: issue.key,
  title: `${issue.key}: ${issue.title}`,
  mimeType: 'application/json',
});
