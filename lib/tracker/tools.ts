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

//
// Where each lives: search_issues and get_issue in tools-issue-reads.ts; create_issue,
// update_issue, bulk_update_status, add_comment and link_issues in tools-issue-writes.ts;
// add_attachment in attachments.ts; summarize_sprint and manage_sprint in tools-sprints.ts;
// define_fields in tools-fields.ts; import_issues and export_issues in tools-exchange.ts. Which of them a server offers: toolsets.ts.

import type { ToolDefinition } from '../../protocol/tools.js';
import type { TrackerStore } from '../store/index.js';
import { domain } from './domain-errors.js';
import { addAttachmentTool } from './attachments.js';
import { getIssueTool, searchIssuesTool } from './tools-issue-reads.js';
import { addCommentTool, bulkUpdateStatusTool, createIssueTool, linkIssuesTool, updateIssueTool } from './tools-issue-writes.js';
import { sprintTools } from './tools-sprints.js';
import { defineFieldsTool } from './tools-fields.js';
import { exportIssuesTool, importIssuesTool } from './tools-exchange.js';

/** Every tool of the tracker, in the order tools/list shows them. */
export function trackerTools(store: TrackerStore): ToolDefinition[] {
  return [
    searchIssuesTool(store),
    getIssueTool(store),
    createIssueTool(store),
    updateIssueTool(store),
    bulkUpdateStatusTool(store),
    addCommentTool(store),
    addAttachmentTool(store, domain),
    linkIssuesTool(store),
    ...sprintTools(store),
    defineFieldsTool(store),
    importIssuesTool(store),
    exportIssuesTool(store),
  ];
}
