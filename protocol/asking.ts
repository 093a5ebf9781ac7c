// Asking the client — a form for the user, a message from the host's model, the client's
// roots — through one helper that works in both eras.
//
// A tool or a prompt calls `context.elicit(form)`, `context.sample(request)`, `context.roots()`,
// or `context.askAll({...})` for several questions at once, and gets either the answer or a
// typed reason why there is none (`Asked`), never an exception: the handler decides what to do
// instead. Only a client that declared the capability is asked
// (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation,
// https://modelcontextprotocol.io/specification/2025-11-25/client/sampling,
// https://modelcontextprotocol.io/specification/2025-11-25/client/roots); how the question
// travels depends on the era of the request:
//
// - Handshake era: a real request to the client (`context.request`), while the tool waits,
//   up to a timeout, and no longer than the tool's own request runs.
// - 2026-07-28: a server sends no requests; it uses multi round-trip requests
//   (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). The
//   helper throws an `InputRequired` marker, which abandons the handler's run; `runAsking`
//   catches it and answers `input_required` with each question under its key and a sealed
//   requestState (the request, its arguments, the answers so far). The client gets the
//   answers and calls again, and the handler runs again *from the start*: this time the helper
//   finds the answer among the round's answers and returns it instead of asking. So a handler
//   asks before it changes anything, and never swallows the marker in a catch-all. `askAll`
//   puts all its questions in one round (one InputRequiredResult with several inputRequests);
//   in the handshake era it asks them one after the other.

import type { ClientCapabilityName, RequestContext } from './context.js';
import {
  ElicitAnswerSchema,
  type FormField,
  InputRequired,
  type InputRequestMethod,
  type InputRequiredResult,
  type RetryParams,
  type Rounds,
  clientCanAnswer,
} from './mrtr.js';

/** What asking came to: the answer, or why there is none. */
export type Asked<T> = { ok: true; value: T } | { ok: false; why: NoAnswer; detail: string };

/**
 * - `unsupported`: the client cannot be asked this (it did not declare the capability, or the
 *   revision has no such request);
 * - `decline`, `cancel`: what the user did with a form, as the spec names the actions;
 * - `failed`: an error answer, one that is not a valid result, a timeout, or the tool's own
 *   request cancelled meanwhile.
 */
export type NoAnswer = 'unsupported' | 'decline' | 'cancel' | 'failed';

/** A form (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation "Requested Schema"): flat, primitive fields only. */
export interface ElicitForm {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, FormField>; required?: string[] };
}

/** A request to the host's model: text messages only, and no context from other servers. */
export interface SamplingRequest {
  messages: { role: 'user' | 'assistant'; content: { type: 'text'; text: string } }[];
  maxTokens: number;
  systemPrompt?: string;
  /** "thisServer" and "allServers" are soft-deprecated (https://modelcontextprotocol.io/specification/2025-11-25/client/sampling). */
  includeContext?: 'none';
  temperature?: number;
}

/** The model's reply: its text blocks joined, and which model wrote it. */
export interface SampledText {
  text: string;
  model: string;
  stopReason?: string;
}

export interface Root {
  uri: string;
  name?: string;
}

export interface AskOptions {
  /** The question's key in 2026-07-28 `inputRequests`; each question of one handler needs its own. */
  key?: string;
  /** How long the handshake era waits for the answer (default: that of `context.request`, 60 s). */
  timeoutMs?: number;
}

/** One question of `askAll`: a form for the user, a request to the host's model, or the client's roots. */
export type Question = { elicit: ElicitForm } | { sample: SamplingRequest } | { roots: true };

/** What answering a Question gives. */
export type AnswerTo<Q extends Question> = Q extends { elicit: ElicitForm }
  ? Record<string, unknown>
  : Q extends { sample: SamplingRequest }
    ? SampledText
    : Root[];

/** The answers of `askAll`, under the keys of its questions. */
export type Answers<Q extends Record<string, Question>> = { [K in keyof Q]: Asked<AnswerTo<Q[K]>> };

/** What a tool's or a prompt's handler gets: its request's context, and the helpers that ask the client. */
export interface ToolContext extends RequestContext {
  /** The form's fields the user filled in, each of the type asked (other keys are dropped). */
  elicit(form: ElicitForm, options?: AskOptions): Promise<Asked<Record<string, unknown>>>;
  sample(request: SamplingRequest, options?: AskOptions): Promise<Asked<SampledText>>;
  roots(options?: AskOptions): Promise<Asked<Root[]>>;
  /**
   * Several questions at once, each under its key (its key in 2026-07-28 `inputRequests`): one
   * round in 2026-07-28, one question after the other in the handshake era.
   */
  askAll<Q extends Record<string, Question>>(questions: Q, options?: { timeoutMs?: number }): Promise<Answers<Q>>;
}

/** Reads a client's answer; undefined when it is not a usable answer to the question. */
type Reader<T> = (answer: unknown) => Asked<T> | undefined;

/** A question ready to go: its key, the request that asks it, how to read the answer; or why it cannot be asked. */
interface Prepared<T> {
  key: string;
  method: InputRequestMethod;
  params: Record<string, unknown>;
  read: Reader<T>;
  /** Set when this revision has no such request. */
  unavailable?: string;
}

/**
 * The ToolContext of one tools/call or prompts/get: the request's context, plus the asking
 * helpers. A class, as HandlerContext is, because one is made per call; the senders are the
 * request context's own (functions that need no `this`).
 */
export class AskingContext implements ToolContext {
  readonly requestId: RequestContext['requestId'];
  readonly rules: RequestContext['rules'];
  readonly client: RequestContext['client'];
  readonly auth: RequestContext['auth'];

  /**
   * `answers`: this round's answers by key (2026-07-28); null where a question is a request the
   * handler waits on instead (the handshake era, and a task's work: tasks.ts).
   */
  constructor(
    private readonly context: RequestContext,
    private readonly answers: Readonly<Record<string, unknown>> | null,
  ) {
    this.requestId = context.requestId;
    this.rules = context.rules;
    this.client = context.client;
    this.auth = context.auth;
  }

  // Read from the request's context when asked for: it makes its senders on first use.
  get signal(): AbortSignal {
    return this.context.signal;
  }

  get progress(): RequestContext['progress'] {
    return this.context.progress;
  }

  get log(): RequestContext['log'] {
    return this.context.log;
  }

  get request(): RequestContext['request'] {
    return this.context.request;
  }

  requireClientCapability(capability: ClientCapabilityName): void {
    this.context.requireClientCapability(capability);
  }

  async elicit(form: ElicitForm, options: AskOptions = {}): Promise<Asked<Record<string, unknown>>> {
    const [answer] = await this.#askEach([this.#elicitation(form, options.key ?? 'elicitation')], options.timeoutMs);
    return answer!;
  }

  async sample(request: SamplingRequest, options: AskOptions = {}): Promise<Asked<SampledText>> {
    const [answer] = await this.#askEach([this.#sampling(request, options.key ?? 'sampling')], options.timeoutMs);
    return answer!;
  }

  async roots(options: AskOptions = {}): Promise<Asked<Root[]>> {
    const [answer] = await this.#askEach([this.#rootsList(options.key ?? 'roots')], options.timeoutMs);
    return answer!;
  }

  async askAll<Q extends Record<string, Question>>(questions: Q, options: { timeoutMs?: number } = {}): Promise<Answers<Q>> {
    const prepared = Object.entries(questions).map(([key, question]): Prepared<unknown> => {
      if ('elicit' in question) return this.#elicitation(question.elicit, key);
      if ('sample' in question) return this.#sampling(question.sample, key);
      return this.#rootsList(key);
    });
    const answers = await this.#askEach(prepared, options.timeoutMs);
    return Object.fromEntries(prepared.map((question, i) => [question.key, answers[i]])) as Answers<Q>;
  }

  #elicitation(form: ElicitForm, key: string): Prepared<Record<string, unknown>> {
    // `mode` exists from 2025-11-25, where leaving it out also means a form; 2025-06-18 has none.
    const params = this.rules.elicitationMode ? { mode: 'form', ...form } : { ...form };
    const read = (answer: unknown) => readElicitation(answer, form);
    const unavailable = this.rules.elicitation ? undefined : `${this.rules.version} has no elicitation`;
    return { key, method: 'elicitation/create', params, read, unavailable };
  }

  #sampling(request: SamplingRequest, key: string): Prepared<SampledText> {
    return { key, method: 'sampling/createMessage', params: { ...request }, read: readSample };
  }

  #rootsList(key: string): Prepared<Root[]> {
    return { key, method: 'roots/list', params: {}, read: readRoots };
  }

  /** The answer to each question, in order; in 2026-07-28 the unanswered ones end the round together. */
  async #askEach<T>(questions: Prepared<T>[], timeoutMs: number | undefined): Promise<Asked<T>[]> {
    if (this.answers === null) {
      const answers: Asked<T>[] = [];
      for (const question of questions) answers.push(await this.#requestAnswer(question, timeoutMs));
      return answers;
    }
    const answers = questions.map((question) => this.#roundAnswer(question));
    const unanswered = questions.filter((_question, i) => answers[i] === undefined);
    // Asked for the first time, or again because the answer did not fit the question.
    if (unanswered.length > 0) {
      throw new InputRequired(Object.fromEntries(unanswered.map(({ key, method, params }) => [key, { method, params }])));
    }
    return answers as Asked<T>[];
  }

  /** 2026-07-28: the answer this round carries, the reason none can come, or undefined: it must be asked. */
  #roundAnswer<T>(question: Prepared<T>): Asked<T> | undefined {
    if (question.unavailable) return noAnswer('unsupported', question.unavailable);
    const answer = this.answers?.[question.key];
    const asked = answer === undefined ? undefined : question.read(answer);
    if (asked) return asked;
    if (clientCanAnswer(question.method, this.client.capabilities)) return undefined;
    return noAnswer('unsupported', `the request's capabilities do not allow ${question.method}`);
  }

  /** The handshake era: a real request to the client, while the handler waits. */
  async #requestAnswer<T>(question: Prepared<T>, timeoutMs: number | undefined): Promise<Asked<T>> {
    const { method, params, read } = question;
    if (question.unavailable) return noAnswer('unsupported', question.unavailable);
    if (!clientCanAnswer(method, this.client.capabilities)) {
      return noAnswer('unsupported', `the client did not declare the capability for ${method}`);
    }
    let answer: unknown;
    try {
      answer = await whileRunning(this.context.request(method, params, timeoutMs), this.signal);
    } catch (error) {
      return noAnswer('failed', error instanceof Error ? error.message : String(error));
    }
    return read(answer) ?? noAnswer('failed', `the answer to ${method} does not fit the question`);
  }
}

/**
 * Runs a handler that may ask the client (a tool, a prompt) in the round its request is in.
 * Handshake era: one run, its questions real requests. 2026-07-28: the round is opened from the
 * request (a retry brings its answers and the sealed state), and a run that ends with questions
 * is answered `input_required` (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr).
 * `target` names the request ("tools/call NAME"), so a state sealed for one opens for no other.
 */
export function runAsking<T>(
  target: string,
  params: RetryParams,
  context: RequestContext,
  rounds: Rounds,
  run: (args: Record<string, unknown>, asking: AskingContext) => T | Promise<T>,
): T | InputRequiredResult | Promise<T | InputRequiredResult> {
  // The handshake era has no rounds: a handler that answers synchronously is answered so.
  if (context.rules.era !== 'stateless') return run(params.arguments ?? {}, new AskingContext(context, null));
  return runRound(target, params, context, rounds, run);
}

/**
 * One 2026-07-28 round. A handler that answers synchronously is answered synchronously here
 * too, as in the handshake era; its questions (InputRequired) end the round either way.
 */
function runRound<T>(
  target: string,
  params: RetryParams,
  context: RequestContext,
  rounds: Rounds,
  run: (args: Record<string, unknown>, asking: AskingContext) => T | Promise<T>,
): T | InputRequiredResult | Promise<T | InputRequiredResult> {
  const round = rounds.open(target, params, context.client.capabilities);
  const interimOrThrow = (thrown: unknown): InputRequiredResult => {
    if (thrown instanceof InputRequired) return rounds.interim(thrown, target, round);
    throw thrown;
  };
  let result: T | Promise<T>;
  try {
    result = run(round.args, new AskingContext(context, round.answers));
  } catch (thrown) {
    return interimOrThrow(thrown);
  }
  return result instanceof Promise ? result.catch(interimOrThrow) : result;
}

const noAnswer = (why: NoAnswer, detail: string): { ok: false; why: NoAnswer; detail: string } => ({ ok: false, why, detail });

/**
 * The answer, unless the tool's own request is cancelled first: then nobody wants it. The
 * request to the client stays pending until its answer or its timeout (which cancels it).
 */
function whileRunning<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('the request was cancelled'));
  return new Promise((resolve, reject) => {
    const stop = () => reject(new Error('the request was cancelled'));
    signal.addEventListener('abort', stop, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** Accepted content keeps the asked fields of the asked types; it must fill every required one. */
function readElicitation(answer: unknown, form: ElicitForm): Asked<Record<string, unknown>> | undefined {
  const parsed = ElicitAnswerSchema.safeParse(answer);
  if (!parsed.success) return undefined;
  const { action, content = {} } = parsed.data;
  if (action !== 'accept') return noAnswer(action, `the user chose to ${action}`);
  const { properties, required = [] } = form.requestedSchema;
  const filled = Object.fromEntries(
    Object.entries(content).filter(([name, value]) => Object.hasOwn(properties, name) && fits(value, properties[name]!)),
  );
  return required.every((name) => Object.hasOwn(filled, name)) ? { ok: true, value: filled } : undefined;
}

const fits = (value: unknown, field: FormField): boolean =>
  field.type === 'integer'
    ? Number.isInteger(value)
    : typeof value === field.type && (field.enum === undefined || field.enum.includes(value as string));

/** Schema CreateMessageResult; `content` is one block, or (2025-11-25→) a list of them. */
function readSample(answer: unknown): Asked<SampledText> | undefined {
  const { role, model, content, stopReason } = (answer ?? {}) as Record<string, unknown>;
  if (role !== 'assistant' || typeof model !== 'string') return undefined;
  const blocks = (Array.isArray(content) ? content : [content]) as { type?: unknown; text?: unknown }[];
  const text = blocks.flatMap((block) => (block?.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
  if (text.length === 0) return undefined;
  return { ok: true, value: { text: text.join('\n'), model, ...(typeof stopReason === 'string' ? { stopReason } : {}) } };
}

/** Schema ListRootsResult: roots with a URI each. */
function readRoots(answer: unknown): Asked<Root[]> | undefined {
  const roots = (answer as { roots?: unknown } | null)?.roots;
  if (!Array.isArray(roots) || !roots.every((root) => typeof root?.uri === 'string')) return undefined;
  return { ok: true, value: roots.map(({ uri, name }) => (typeof name === 'string' ? { uri, name } : { uri })) };
}
