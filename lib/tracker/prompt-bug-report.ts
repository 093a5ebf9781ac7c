// The bug_report prompt: filing a bug as a guided conversation, not a form.
//
// The user names the project (and, if they like, a one-line summary and a priority). The
// prompt shows the project's open bugs, live, so a duplicate is found before it is filed, then
// has the model ask the questions a good report answers, one at a time, and file it with the
// tools: create_issue, add_attachment for a screenshot or a log, link_issues for a related bug.
// Nothing is filed before the user has seen the issue. The listing here; the messages
// (bugReportMessages) are loaded on first use with the other prompts' (prompt-messages.ts).

import { invalidParams } from '../../protocol/errors.js';
import type { PromptDefinition } from '../../protocol/prompts.js';
import { isDomainError, LIMITS, parsePriority, type TrackerStore } from '../store/index.js';
import { completers } from './completers.js';
import { readUri } from './resource-reads.js';
import { JSON_MIME, TEMPLATES } from './resource-uris.js';
import { say, type Expand, type PromptMessages } from './prompt-parts.js';

/** The questions a bug report answers; the order the model asks them in. */
const QUESTIONS = [
  'What did you do? (the steps, from the start, so someone else can do the same)',
  'What did you expect to happen?',
  'What happened instead? (the exact error or message, if there was one)',
  'How often does it happen, and who is affected? (this sets the priority)',
  'Do you have a screenshot or a log? (I can attach it)',
];

/** An argument the store refuses (unknown project, bad priority) is the caller's mistake: -32602 with the store's reason. */
function checked<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (isDomainError(error)) throw invalidParams(error.message);
    throw error;
  }
}

/**
 * The summary completes with the titles of open bugs that contain what was typed: a user about
 * to file a duplicate sees it while typing. An unknown project suggests nothing.
 */
function openBugTitles(store: TrackerStore, typed: string, project: string | undefined) {
  const wanted = typed.trim().toLowerCase();
  try {
    const page = store.searchIssues({ project: project || undefined, query: 'type = bug AND status != done', limit: 100 });
    const titles = page.items.map((issue) => issue.title).filter((title) => title.toLowerCase().includes(wanted));
    return { values: titles, total: titles.length };
  } catch (error) {
    if (isDomainError(error)) return { values: [] };
    throw error;
  }
}

export function bugReportPrompt(store: TrackerStore, expand: Expand): PromptDefinition {
  const complete = completers(store);
  return {
    name: 'bug_report',
    title: 'Report a bug',
    description: 'File a bug step by step: check for duplicates among the open bugs, answer a few questions, review, then file.',
    arguments: [
      {
        name: 'project',
        title: 'Project',
        description: 'Project key, e.g. PROJ.',
        required: true,
        complete: complete.projectKey,
      },
      {
        name: 'summary',
        title: 'Summary',
        description: 'What is wrong, in one line (optional).',
        complete: (value, chosen) => openBugTitles(store, value, chosen.project),
      },
      { name: 'priority', title: 'Priority', description: 'P0 to P3, if you already know it.', complete: complete.priority },
    ],
    get: expand('bug_report'),
  };
}

export const bugReportMessages: PromptMessages = (store, args) => {
  const project = checked(() => store.getProject(args.project ?? '')).key;
  const priority = args.priority?.trim() ? checked(() => parsePriority(args.priority)) : undefined;
  const summary = args.summary?.trim().slice(0, LIMITS.titleMax);
  const jql = `project = ${project} AND type = bug AND status != done ORDER BY priority, updated DESC`;
  const uri = TEMPLATES.search.expand({ jql });
  const openBugs = JSON.stringify(readUri(store, uri));
  return {
    description: `Report a bug in ${project}`,
    messages: [
      say('user', `I want to report a bug in ${project}${summary ? `: ${summary}` : ''}.`),
      say('assistant', `Before we file it, let me check whether it is already reported. These are the open bugs of ${project}:`),
      { role: 'user', content: { type: 'resource', resource: { uri, mimeType: JSON_MIME, text: openBugs } } },
      say(
        'assistant',
        'To write a report someone can act on, I will ask you a few questions, one at a time:\n' +
          QUESTIONS.map((question, index) => `${index + 1}. ${question}`).join('\n'),
      ),
      say(
        'user',
        'Ask me those questions one at a time and wait for each answer. If one of the open bugs above is the same ' +
          'problem, say which and offer to add my details to it with add_comment instead of filing a new one. ' +
          `Otherwise draft the bug: a title of one line, the priority (${priority ?? 'P0 if users lose money or data, P1 if a main flow is broken, P2 otherwise, P3 for cosmetics'}), ` +
          'and a description with the sections Steps, Expected, Actual and Impact. Show me the draft and file it only ' +
          `when I agree: create_issue with project ${project} and type bug, then add_attachment for any file I give you, ` +
          'and link_issues (relates_to) for a related open bug.',
      ),
    ],
  };
};
