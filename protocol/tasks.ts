// Tasks: the io.modelcontextprotocol/tasks extension of 2026-07-28 (SEP-2663, which holds its text:
// https://modelcontextprotocol.io/seps/2663-tasks-extension).
//
// A server may answer a tools/call with a handle instead of the result: `resultType: "task"`, a
// task id, a status. The work goes on without the request; the client polls `tasks/get` until
// the status is terminal and reads the result inlined there, answers the task's questions with
// `tasks/update`, or gives up with `tasks/cancel`. Only a client whose request declares the
// extension (in `_meta` io.modelcontextprotocol/clientCapabilities `extensions`) may be given a
// task, and only such a client may call the three methods (-32021 otherwise).
//
//   working ──> input_required ──> working ──> completed | failed | cancelled  (terminal: never changes again)
//
// - `completed` carries what the call would have returned, an `isError: true` tool result
//   included; `failed` is only for a JSON-RPC error ("MUST NOT be used for non-JSON-RPC errors").
// - A question the work asks (an elicitation, a sampling, the roots) parks the task in
//   `input_required` with the question in `inputRequests`, under a key never used again in
//   this task; `tasks/update` answers some or all of them, and the task stays in
//   `input_required` until none is left. Answers to keys not outstanding are ignored (SHOULD).
// - Cancellation is cooperative in the spec; ours is immediate: the task is `cancelled` at
//   once and its work's signal aborts; what the work returns afterwards is dropped.
//
// Our bounds and choices, where the spec leaves them to the server (docs/protocol-support.md):
// - at most `maxTasks` tasks are held, running or finished; past that no task is made (an
//   optional task's call is answered at once instead; a required one is refused);
// - a task is held `ttlMs` from its creation, then forgotten (its work aborted if it still
//   runs): `tasks/get` says -32602 for it, as for any id we do not know. Never earlier: the
//   spec lets the client count on `createdAt + ttlMs`;
// - tasks belong to the server, not to a connection: a client that goes away (a closed HTTP
//   stream, a dropped session) leaves its tasks running, to be read by the id after it
//   reconnects. The id is the only key to a task (122 random bits, "sufficient entropy that a
//   third party cannot enumerate or guess them"); there is no tasks/list. Held in memory: a
//   process that ends takes its tasks with it.

import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import type { Client, ClientCapabilityName, RequestContext } from './context.js';
import { type RpcError, invalidParams, missingClientCapability, toRpcError } from './errors.js';
import type { RequestId } from './json-rpc.js';
import type { ClientCapabilities } from './schemas.js';
import type { VersionRules } from './versions.js';

/** The extension's identifier, in `capabilities.extensions` of both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskLimits {
  /** Tasks held at once, running or finished (default 1000). */
  maxTasks: number;
  /** How long a task is held from its creation, result included (default 30 minutes). */
  ttlMs: number;
  /** The polling interval suggested to clients (default 1 s). */
  pollIntervalMs: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = { maxTasks: 1000, ttlMs: 30 * 60_000, pollIntervalMs: 1000 };

/** What a task's work may do besides its job: notice a cancellation, ask the client. */
export interface TaskControl {
  /** Aborted by tasks/cancel, and when the task expires. */
  readonly signal: AbortSignal;
  /** Parks a question in `inputRequests`; settles with the answer tasks/update brings. */
  ask(method: string, params: unknown): Promise<unknown>;
  /** Sets the task's `statusMessage` ("progress descriptions for working"), while it is not over. */
  say(message: string): void;
}

/** How the work ended: with the request's result (completed) or a JSON-RPC error (failed). */
export type TaskOutcome = { result: unknown } | { error: RpcError };

/** Schema CreateTaskResult: `Result & Task`, flat, with `resultType: "task"`. */
export interface CreateTaskResult extends Record<string, unknown> {
  resultType: 'task';
  taskId: string;
  status: TaskStatus;
}

export function isCreateTaskResult(value: unknown): value is CreateTaskResult {
  return (value as { resultType?: unknown } | null)?.resultType === 'task';
}

/**
 * Tasks are bound to whoever started them: "Servers MUST perform authentication and
 * authorization checks on each task-related request to ensure that the client has permission to
 * access a task" (https://modelcontextprotocol.io/specification/draft/tasks, Security, "Auth
 * binding"). `asker` is the request's authenticated subject (RequestContext.auth), undefined
 * when the transport authenticates nobody (stdio, an open HTTP server): a task started by a
 * subject answers that subject only, and to anyone else is as unknown as a task never started,
 * so its id tells a stranger nothing.
 */
export interface TaskStore {
  /** A task running `work`, as its CreateTaskResult; undefined when `maxTasks` are held already. */
  start(work: (control: TaskControl) => Promise<TaskOutcome>, asker?: string): CreateTaskResult | undefined;
  /** Schema DetailedTask: the task now, with its questions, result or error inlined. */
  get(taskId: string, asker?: string): Record<string, unknown>;
  /** Delivers answers to outstanding questions; others are ignored. */
  update(taskId: string, inputResponses: Record<string, unknown>, asker?: string): void;
  /** Ends a task that is not over yet as `cancelled`; a finished task is left as it is. */
  cancel(taskId: string, asker?: string): void;
  /** Tasks held now. */
  readonly size: number;
}

/** Whether the request declared the extension: a task may be given to it, and it may call tasks/*. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** -32021 naming the extension (the spec's example error). */
export const tasksNotDeclared = (): RpcError => missingClientCapability({ extensions: { [TASKS_EXTENSION]: {} } });

export const TaskIdParamsSchema = z.looseObject({ taskId: z.string() });
export const UpdateTaskParamsSchema = z.looseObject({
  taskId: z.string(),
  inputResponses: z.record(z.string(), z.unknown()),
});

interface Question {
  method: string;
  params: unknown;
  answer(value: unknown): void;
  refuse(reason: Error): void;
}

interface Task {
  id: string;
  /** The authenticated subject that started it (TaskStore). */
  owner: string | undefined;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  statusMessage?: string;
  questions: Map<string, Question>;
  /** Keys handed out so far: each is used once in a task's life. */
  asked: number;
  outcome?: TaskOutcome;
  abort: AbortController;
  expiry: NodeJS.Timeout;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** `report` hears a fault of ours: work that threw instead of returning its outcome. */
export function createTaskStore(limits: TaskLimits, report: (detail: string) => void): TaskStore {
  const tasks = new Map<string, Task>();

  function find(taskId: string, asker: string | undefined): Task {
    const task = tasks.get(taskId);
    // The spec's own wording for an unknown or expired task: -32602.
    if (!task || task.owner !== asker)
      throw invalidParams('Invalid params: task not found (unknown, or expired and forgotten)', { taskId });
    return task;
  }

  function move(task: Task, status: TaskStatus): void {
    task.status = status;
    task.lastUpdatedAt = new Date().toISOString();
  }

  function finish(task: Task, outcome: TaskOutcome): void {
    if (TERMINAL.has(task.status)) return; // cancelled meanwhile: what the work returns is dropped
    task.outcome = outcome;
    move(task, 'result' in outcome ? 'completed' : 'failed');
  }

  function control(task: Task): TaskControl {
    return {
      signal: task.abort.signal,
      ask(method, params) {
        if (TERMINAL.has(task.status)) return Promise.reject(new Error('the task is over'));
        task.asked += 1;
        const key = `input-${task.asked}`;
        return new Promise((resolve, reject) => {
          task.questions.set(key, { method, params, answer: resolve, refuse: reject });
          if (task.status === 'working') move(task, 'input_required');
        });
      },
      say(message) {
        if (TERMINAL.has(task.status)) return;
        task.statusMessage = message;
        task.lastUpdatedAt = new Date().toISOString();
      },
    };
  }

  function expire(task: Task): void {
    tasks.delete(task.id);
    end(task);
  }

  /** Stops the work: its signal aborts and its questions are refused. */
  function end(task: Task): void {
    task.abort.abort();
    for (const question of task.questions.values()) question.refuse(new Error('the task was cancelled'));
    task.questions.clear();
  }

  return {
    start(work, asker) {
      if (tasks.size >= limits.maxTasks) return undefined;
      const now = new Date().toISOString();
      const task: Task = {
        id: randomUUID(),
        owner: asker,
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        questions: new Map(),
        asked: 0,
        abort: new AbortController(),
        expiry: setTimeout(() => expire(task), limits.ttlMs),
      };
      task.expiry.unref();
      // Held before the answer leaves: a tasks/get right after it finds the task (MUST).
      tasks.set(task.id, task);
      work(control(task)).then(
        (outcome) => finish(task, outcome),
        (thrown: unknown) => finish(task, { error: toRpcError(thrown, report) }),
      );
      return { resultType: 'task', ...summary(task, limits) } as CreateTaskResult;
    },
    get(taskId, asker) {
      const task = find(taskId, asker);
      const detailed: Record<string, unknown> = summary(task, limits);
      if (task.status === 'input_required') {
        detailed.inputRequests = Object.fromEntries(
          [...task.questions].map(([key, { method, params }]) => [key, { method, params }]),
        );
      }
      if (task.status === 'completed' && task.outcome && 'result' in task.outcome) detailed.result = task.outcome.result;
      if (task.status === 'failed' && task.outcome && 'error' in task.outcome) detailed.error = task.outcome.error.toJSON();
      return detailed;
    },
    update(taskId, inputResponses, asker) {
      const task = find(taskId, asker);
      for (const [key, value] of Object.entries(inputResponses)) {
        const question = task.questions.get(key);
        if (!question) continue;
        task.questions.delete(key);
        question.answer(value);
      }
      if (task.status === 'input_required' && task.questions.size === 0) move(task, 'working');
    },
    cancel(taskId, asker) {
      const task = find(taskId, asker);
      if (TERMINAL.has(task.status)) return;
      move(task, 'cancelled');
      end(task);
    },
    get size() {
      return tasks.size;
    },
  };
}

/** Schema Task: the fields every shape of a task carries. */
function summary(task: Task, limits: TaskLimits): Record<string, unknown> {
  const fields: Record<string, unknown> = { taskId: task.id, status: task.status };
  if (task.statusMessage !== undefined) fields.statusMessage = task.statusMessage;
  return Object.assign(fields, {
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: limits.ttlMs,
    pollIntervalMs: limits.pollIntervalMs,
  });
}

/**
 * The RequestContext of a task's work: the creating request's revision and client, the task's
 * signal, and questions that park the task instead of going to the client. No notifications:
 * progress and logs are "not supported on tasks in general"; progress becomes the task's
 * `statusMessage` instead, so a poll (and a cancelled task) says how far the work went.
 */
export class TaskContext implements RequestContext {
  constructor(
    readonly requestId: RequestId,
    readonly rules: VersionRules,
    readonly client: Client,
    private readonly control: TaskControl,
  ) {}

  get signal(): AbortSignal {
    return this.control.signal;
  }

  readonly progress = (progress: number, total?: number, message?: string): void =>
    this.control.say(message ?? (total === undefined ? `${progress}` : `${progress} of ${total}`));

  log(): void {}

  /** No timeout of its own: a question waits for its answer as long as the task is held. */
  readonly request = (method: string, params: unknown): Promise<unknown> => this.control.ask(method, params);

  requireClientCapability(capability: ClientCapabilityName): void {
    if (this.client.capabilities[capability] === undefined) throw missingClientCapability({ [capability]: {} });
  }
}
