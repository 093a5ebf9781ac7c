// What the prompts expand into (prompt-messages.ts), loaded on the first prompts/get: prompts/list
// needs only their names, descriptions and arguments. In the bundle, build.mjs defines
// __MCP_TRACKER_PROMPTS_BUNDLE__ as dist/mcp-tracker-prompts.mjs; the seam's pattern is explained
// once, in lib/companion-bundle.ts. What crosses it: the store goes in (its methods are called),
// messages come back as plain data, a bad argument as the engine's -32602 error (a plain object
// the engine reads by its code).
import { importCompanion } from '../companion-bundle.js';

type PromptMessagesModule = typeof import('./prompt-messages.js');

declare const __MCP_TRACKER_PROMPTS_BUNDLE__: string | undefined;

export async function loadPromptMessages(): Promise<PromptMessagesModule> {
  const specifier =
    typeof __MCP_TRACKER_PROMPTS_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_PROMPTS_BUNDLE__, import.meta.url).href
      : './prompt-messages.js';
  return importCompanion<PromptMessagesModule>(() => import(specifier), specifier, 'prompts/get');
}
