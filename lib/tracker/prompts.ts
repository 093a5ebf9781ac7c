// Prompts: conversations the user starts from a menu, with arguments.
//
// Each is several user/assistant turns, and embeds the live resource it talks about as an
// embedded resource (`type: "resource"`, with its MIME type, A-13) read at the moment the
// prompt is fetched, rather than a copy pasted into the text.
//
// Here and in the two files beside it (prompts-sprints.ts, prompt-bug-report.ts): what
// prompts/list shows of each prompt, its arguments with their completions. What a prompt expands
// into (prompt-messages.ts) is loaded on the first prompts/get (prompts-loader.ts).

import type { PromptDefinition } from '../../protocol/prompts.js';
import type { TrackerStore } from '../store/index.js';
import { onFirstUse } from '../companion-bundle.js';
import { sprintPrompts } from './prompts-sprints.js';
import { completers } from './completers.js';
import { bugReportPrompt } from './prompt-bug-report.js';
import type { Expand } from './prompt-parts.js';
import { loadPromptMessages } from './prompts-loader.js';

export function trackerPrompts(store: TrackerStore): PromptDefinition[] {
  const complete = completers(store);
  const messages = onFirstUse(loadPromptMessages);
  const expand: Expand = (name) => async (args) => {
    // The messages' bundle throws its own copy of the engine's RpcError (a bad argument,
    // -32602), which the engine knows by its mark (protocol/errors.ts, isRpcError).
    const { PROMPT_MESSAGES } = await messages();
    return PROMPT_MESSAGES[name](store, args);
  };

  const triage: PromptDefinition = {
    name: 'triage_issue',
    title: 'Triage an issue',
    description: 'Decide priority, owner and sprint for one issue, with the issue and the current sprint in front of you.',
    arguments: [
      {
        name: 'issue_key',
        title: 'Issue',
        description: 'The issue to triage, e.g. PROJ-104.',
        required: true,
        complete: complete.issueKey,
      },
    ],
    get: expand('triage_issue'),
  };

  const sprintReview: PromptDefinition = {
    name: 'sprint_review',
    title: 'Sprint review',
    description: 'Review a sprint: what got done, what is at risk, what to carry over. Defaults to the current sprint.',
    arguments: [
      {
        name: 'sprint',
        title: 'Sprint',
        description: 'Sprint id, e.g. PROJ-S42; default: the current sprint.',
        complete: complete.sprintId,
      },
    ],
    get: expand('sprint_review'),
  };

  const standup: PromptDefinition = {
    name: 'standup',
    title: 'Daily standup',
    description:
      "Prepare a standup update across projects: yesterday's progress, today's plan, blockers, with each project's sprint. " +
      'For one person, or the whole team.',
    arguments: [
      {
        name: 'assignee',
        title: 'Person',
        description: 'Handle, e.g. alice; default: the whole team.',
        complete: complete.assignee,
      },
    ],
    get: expand('standup'),
  };

  return [triage, sprintReview, standup, bugReportPrompt(store, expand), ...sprintPrompts(store, expand)];
}
