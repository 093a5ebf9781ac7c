// The tools of the suite's tasks scenarios (tasks-*, the io.modelcontextprotocol/tasks extension
// of 2026-07-28), each as its scenario's "Required server fixtures" describes it. A tool marked
// `task` runs as a task for a request that declares the extension (protocol/tasks.ts); the
// engine makes the task, answers tasks/get, tasks/update and tasks/cancel, and parks a question
// the tool asks in the task's inputRequests. The tools only do their job.

import * as z from 'zod/mini';
import type { Asked } from '../../protocol/asking.js';
import { ErrorCode, RpcError } from '../../protocol/errors.js';
import { type ToolDefinition, ToolError, type ToolResult } from '../../protocol/tools.js';

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });

/** Waits `ms`, or less if the task is cancelled meanwhile. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

function answered<T>(asked: Asked<T>): T {
  if (!asked.ok) throw new ToolError(`No answer (${asked.why}): ${asked.detail}`);
  return asked.value;
}

const form = (message: string, field: string, type: 'string' | 'boolean') => ({
  message,
  requestedSchema: { type: 'object' as const, properties: { [field]: { type } }, required: [field] },
});

export const taskTools: ToolDefinition[] = [
  {
    name: 'greet',
    description: 'Greets by name, at once (never a task).',
    input: z.object({ name: z.string() }),
    run: ({ name }) => text(`Hello, ${name}!`),
  },
  {
    name: 'slow_compute',
    description: 'Sleeps `seconds`, then reports; a task for a client that can take one.',
    input: z.object({ seconds: z.number().check(z.gte(0), z.lte(3600)), label: z.optional(z.string()) }),
    task: 'optional',
    async run({ seconds, label }, context) {
      await pause(seconds * 1000, context.signal);
      return text(`Computed ${label ?? 'result'} after ${seconds}s`);
    },
  },
  {
    name: 'failing_job',
    description: 'Fails after about a second with a tool error; runs only as a task.',
    input: z.object({}),
    task: 'required',
    async run(_args, context) {
      await pause(1000, context.signal);
      throw new ToolError('failing_job failed, as it always does');
    },
  },
  {
    name: 'protocol_error_job',
    description: 'Fails with a JSON-RPC error (a protocol error, not a tool error).',
    input: z.object({}),
    task: 'optional',
    run() {
      throw new RpcError(ErrorCode.InternalError, 'Internal error: protocol_error_job crashed on purpose');
    },
  },
  {
    name: 'confirm_delete',
    description: 'Asks the user to confirm, then reports the file deleted (nothing is deleted).',
    input: z.object({ filename: z.string() }),
    task: 'optional',
    async run({ filename }, context) {
      const { confirm } = answered(await context.elicit(form(`Delete ${filename}?`, 'confirm', 'boolean')));
      return text(confirm ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  },
  {
    name: 'multi_input',
    description: 'Asks two questions at once, then reports both answers.',
    input: z.object({}),
    task: 'optional',
    async run(_args, context) {
      const [name, confirm] = await Promise.all([
        context.elicit(form('Your name?', 'name', 'string')),
        context.elicit(form('Go ahead?', 'confirm', 'boolean')),
      ]);
      return text(`name=${String(answered(name).name)} confirm=${String(answered(confirm).confirm)}`);
    },
  },
  {
    // Its argument is asked for on the request (MRTR) when missing; the task is made once it is known.
    name: 'test_tool_with_task',
    description: "Asks the user's name if it is not given, then greets them from a task.",
    input: z.object({ name: z.string() }),
    ask: { message: 'What is your name?', fields: { name: { type: 'string' } } },
    task: 'required',
    async run({ name }, context) {
      await pause(100, context.signal);
      return text(`Hello, ${name}!`);
    },
  },
];
