// Prompts: templates the user picks, which expand into a conversation (https://modelcontextprotocol.io/specification/2025-11-25/server/prompts).
//
// - Argument values are strings on the wire (TS #250); a prompt converts them itself.
// - A missing required argument, an argument the prompt does not have, and an unknown
//   prompt are all -32602, naming what is wrong (the page says SHOULD validate arguments).
// - Each message holds exactly ONE content block, not an array (a content array there breaks clients); several messages
//   make a multi-turn prompt, and the spec sets no rule on the order of roles.
// - A prompt may ask the client, as a tool may (asking.ts): in 2026-07-28 prompts/get then
//   answers `input_required`, which any request may ("InputRequiredResult is universal":
//   https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr), and the
//   retry carries the answers; in the handshake era the question is a request to the client.

import { type ToolContext, runAsking } from './asking.js';
import { type ContentBlock, shapeContentBlock } from './content.js';
import type { RequestContext } from './context.js';
import { excerpt, excerpts, invalidParams } from './errors.js';
import type { InputRequiredResult, RetryParams, Rounds } from './mrtr.js';
import type { Completer } from './resources.js';
import type { VersionRules } from './versions.js';

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  complete?: Completer;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
  get(args: Readonly<Record<string, string>>, context: ToolContext): PromptResult | Promise<PromptResult>;
}

export interface PromptRegistry {
  describe(rules: VersionRules): Record<string, unknown>[];
  /** `params`: the prompt's arguments, and on a 2026-07-28 retry its answers and requestState. */
  get(name: string, params: RetryParams, context: RequestContext): Promise<PromptResult | InputRequiredResult>;
  /** The completer for one argument; throws -32602 for an unknown prompt. */
  completer(prompt: string, argument: string): Completer | undefined;
}

/** `rounds` seals the MRTR requestStates of the prompts that ask. */
export function createPromptRegistry(prompts: readonly PromptDefinition[], rounds: Rounds): PromptRegistry {
  const byName = new Map(prompts.map((prompt) => [prompt.name, prompt]));

  function find(name: string): PromptDefinition {
    const prompt = byName.get(name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${excerpt(name)}`, { name: excerpt(name), known: [...byName.keys()] });
    return prompt;
  }

  function checkArguments(prompt: PromptDefinition, args: Record<string, unknown>): void {
    const accepted = prompt.arguments.map((a) => a.name);
    const unknown = excerpts(Object.keys(args).filter((key) => !accepted.includes(key)));
    if (unknown.length > 0) {
      throw invalidParams(
        `Unknown argument ${unknown.join(', ')} for prompt ${prompt.name}; it takes: ${accepted.join(', ') || 'no arguments'}`,
        { unknown, accepted },
      );
    }
    const missing = prompt.arguments.filter((a) => a.required && !String(args[a.name] ?? '').trim()).map((a) => a.name);
    if (missing.length > 0) {
      throw invalidParams(`Missing required argument ${missing.join(', ')} for prompt ${prompt.name}`, { missing });
    }
  }

  async function get(name: string, params: RetryParams, context: RequestContext): Promise<PromptResult | InputRequiredResult> {
    const prompt = find(name);
    return runAsking(`prompts/get ${name}`, params, context, rounds, async (args, asking) => {
      checkArguments(prompt, args);
      // The arguments are strings: from the request's schema, or from a state we sealed after checking them.
      const result = await prompt.get(args as Record<string, string>, asking);
      return {
        ...result,
        messages: result.messages.map((m) => ({ role: m.role, content: shapeContentBlock(m.content, context.rules) })),
      };
    });
  }

  return {
    describe: (rules) => prompts.map((prompt) => describePrompt(prompt, rules)),
    get,
    completer: (prompt, argument) => find(prompt).arguments.find((a) => a.name === argument)?.complete,
  };
}

function describePrompt(prompt: PromptDefinition, rules: VersionRules): Record<string, unknown> {
  const out: Record<string, unknown> = { name: prompt.name };
  if (rules.titles && prompt.title) out.title = prompt.title;
  if (prompt.description) out.description = prompt.description;
  out.arguments = prompt.arguments.map(({ complete: _complete, title, ...argument }) =>
    rules.titles && title ? { ...argument, title } : argument,
  );
  return out;
}
