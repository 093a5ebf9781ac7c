// What every prompt's messages are made of, and the names that join a prompt's listing (what
// prompts/list shows: prompts.ts, prompts-sprints.ts, prompt-bug-report.ts) to its messages (what
// prompts/get expands it into, loaded on first use: prompt-messages.ts, through prompts-loader.ts).
import { excerpt, invalidParams } from '../../protocol/errors.js';
import type { PromptDefinition, PromptMessage, PromptResult } from '../../protocol/prompts.js';
import type { TrackerStore } from '../store/index.js';
import { readUri } from './resource-reads.js';
import { JSON_MIME } from './resource-uris.js';

export type PromptName = 'triage_issue' | 'sprint_review' | 'standup' | 'bug_report' | 'plan_sprint' | 'release_notes';

/** A prompt's messages for the arguments given (a bad argument is -32602). */
export type PromptMessages = (store: TrackerStore, args: Readonly<Record<string, string>>) => PromptResult;

/** A listed prompt's `get`: its messages, once they are loaded. */
export type Expand = (name: PromptName) => PromptDefinition['get'];

export const say = (role: PromptMessage['role'], text: string): PromptMessage => ({ role, content: { type: 'text', text } });

/** A resource as a prompt message, read now; an argument that names nothing is the caller's mistake (-32602). */
export function embed(store: TrackerStore, uri: string, argument: string): PromptMessage {
  const value = readUri(store, uri);
  if (value === null) throw invalidParams(`Nothing found for ${argument}: ${excerpt(uri)} does not exist`, { uri: excerpt(uri) });
  return {
    role: 'user',
    content: { type: 'resource', resource: { uri, mimeType: JSON_MIME, text: JSON.stringify(value) } },
  };
}
