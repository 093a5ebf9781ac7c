// Multi round-trip requests (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr; rule 15.2).
//
// In 2026-07-28 a server never sends requests to the client. When a tool needs something
// from the user, the host's model or the client's roots, it answers with an interim result,
// `resultType: "input_required"`, holding the questions (`inputRequests`, each under a key)
// and an opaque `requestState`. The client gets the answers and calls again — a new request
// with a new id — passing them in `inputResponses` and the `requestState` back unchanged.
// How a tool asks, in either era, is `protocol/asking.ts`; this file is the round trip.
//
// The requestState travels through the client, so it is attacker-controlled: it MUST be
// integrity-protected when it affects what the server does. Ours is HMAC-SHA256 over its
// payload, with a key made for this process (or given, to share among instances), an expiry,
// and a nonce used at most once (a replayed state would otherwise create the same issue twice).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import { type RpcError, invalidParams, missingClientCapability } from './errors.js';
import type { ClientCapabilities } from './schemas.js';

/** One field of an elicitation form: the flat, primitive-only schema the spec allows. */
export interface FormField {
  type: 'string' | 'number' | 'integer' | 'boolean';
  title?: string;
  description?: string;
  enum?: string[];
}

/** Arguments a tool may ask the user for when a call leaves them out, in any era that can ask. */
export interface AskForMissing {
  message: string;
  fields: Record<string, FormField>;
}

export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests: Record<string, unknown>;
  requestState: string;
}

/** What the client sends back for an elicitation (schema ElicitResult). */
export const ElicitAnswerSchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.optional(z.record(z.string(), z.unknown())),
});

/** The key of our one question in `inputRequests` / `inputResponses`. */
export const FORM_KEY = 'missing_arguments';

/** 2025-11-25→: `elicitation: {}` means form mode; `elicitation.form` says so explicitly. */
export function canElicitForm(capabilities: ClientCapabilities): boolean {
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  return elicitation !== undefined && (Object.keys(elicitation).length === 0 || 'form' in elicitation);
}

/** The requests a server may ask the client in `inputRequests` (schema InputRequest). */
export type InputRequestMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** The client capability each of them needs, as -32021 names it in `requiredCapabilities`. */
const REQUIRED_CAPABILITY: Record<InputRequestMethod, ClientCapabilities> = {
  'elicitation/create': { elicitation: { form: {} } },
  'sampling/createMessage': { sampling: {} },
  'roots/list': { roots: {} },
};

/** Whether the client declared what answering `method` takes: form mode, for elicitation. */
export function clientCanAnswer(method: InputRequestMethod, capabilities: ClientCapabilities): boolean {
  if (method === 'elicitation/create') return canElicitForm(capabilities);
  return capabilities[method === 'sampling/createMessage' ? 'sampling' : 'roots'] !== undefined;
}

/**
 * The questions a tool or a prompt cannot go on without, in 2026-07-28: thrown by the asking
 * helpers to abandon the handler's run, caught by `runAsking` (asking.ts), which answers with
 * them. Several at once when the handler asked them together (askAll). Not an Error: nothing
 * went wrong, and the stack trace would be wasted.
 */
export class InputRequired {
  constructor(readonly questions: Readonly<Record<string, { method: InputRequestMethod; params: Record<string, unknown> }>>) {}
}

/** Where a request stands: its arguments, the answers gathered so far, and what the last round asked, by key. */
export interface Round {
  args: Record<string, unknown>;
  answers: Record<string, unknown>;
  asked: Record<string, InputRequestMethod>;
}

/** What a requestState of ours carries: the request being completed ("tools/call NAME", "prompts/get NAME"). */
export interface PendingRequest extends Round {
  target: string;
}

/** The params of a request that may be a retry: its arguments, and on a retry the answers and the state. */
export interface RetryParams {
  arguments?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** Schema InputResponse: each answer is one of the three results. Their inner shapes are checked where they are used. */
const InputResponsesSchema = z.record(
  z.string(),
  z.union([
    ElicitAnswerSchema,
    z.looseObject({ role: z.string(), model: z.string() }),
    z.looseObject({ roots: z.array(z.unknown()) }),
  ]),
);

/**
 * The rounds of every request that can ask (tools/call, prompts/get), sealed with one key:
 * give every instance behind one URL the same key, so a retry served by another instance
 * still opens (a fresh random key per process otherwise).
 */
export interface Rounds {
  /**
   * The round a request is in: a first call, or a retry whose requestState we sealed. An answer
   * that is missing is asked for again (the spec prefers that to an error), unless the retry
   * lacks the capability to answer it: then -32021.
   */
  open(target: string, params: RetryParams, capabilities: ClientCapabilities): Round;
  /** The interim answer to a round that ended with questions: the questions, and the request sealed to resume it. */
  interim(questions: InputRequired, target: string, round: Round): InputRequiredResult;
}

export function createRounds(stateKey?: Uint8Array): Rounds {
  const sealer = createStateSealer<PendingRequest>(stateKey);
  return {
    open(target, params, capabilities) {
      if (params.requestState === undefined) return { args: params.arguments ?? {}, answers: {}, asked: {} };
      // Check the answers' shape first: a malformed one must not use up the single-use state.
      const responses = InputResponsesSchema.safeParse(params.inputResponses ?? {});
      if (!responses.success) {
        throw invalidParams('Invalid params: each of inputResponses must be an elicitation, sampling or roots result');
      }
      const pending = sealer.open(params.requestState);
      if (!pending || pending.target !== target) {
        throw invalidParams(
          'Invalid params: requestState is not valid (altered, expired, already used, or sealed for another request); send the request again without it',
        );
      }
      // Only answers to what we asked: servers SHOULD ignore unexpected keys (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr).
      const answers = { ...pending.answers };
      for (const key of Object.keys(pending.asked)) if (Object.hasOwn(responses.data, key)) answers[key] = responses.data[key];
      const unanswerable = Object.entries(pending.asked)
        .filter(([key, method]) => !Object.hasOwn(answers, key) && !clientCanAnswer(method, capabilities))
        .map(([, method]) => method);
      if (unanswerable.length > 0) throw missingCapabilityFor(unanswerable);
      return { args: pending.args, answers, asked: pending.asked };
    },
    interim({ questions }, target, round) {
      const asked = Object.fromEntries(Object.entries(questions).map(([key, question]) => [key, question.method]));
      return {
        resultType: 'input_required',
        inputRequests: { ...questions },
        requestState: sealer.seal({ target, args: round.args, answers: round.answers, asked }),
      };
    },
  };
}

/** -32021 naming the capabilities that answering these requests takes. */
function missingCapabilityFor(methods: readonly InputRequestMethod[]): RpcError {
  return missingClientCapability(Object.assign({}, ...methods.map((method) => REQUIRED_CAPABILITY[method])));
}

export interface SealedState<T> {
  seal(payload: T): string;
  /** The payload, or null if the state was forged, altered, expired or already used. */
  open(token: string): T | null;
}

export function createStateSealer<T>(key: Uint8Array = randomBytes(32), ttlMs = 10 * 60_000): SealedState<T> {
  if (key.length < 32) throw new Error(`a requestState key needs at least 32 bytes, got ${key.length}`);
  const used = new Map<string, number>(); // nonce -> expiry, so the set forgets on its own
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();

  return {
    seal(payload) {
      const body = Buffer.from(
        JSON.stringify({ payload, expires: Date.now() + ttlMs, nonce: randomBytes(12).toString('base64url') }),
      ).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    open(token) {
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined) return null;
      const expected = mac(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const { payload, expires, nonce } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
        payload: T;
        expires: number;
        nonce: string;
      };
      const now = Date.now();
      for (const [seen, until] of used) if (until < now) used.delete(seen);
      if (expires < now || used.has(nonce)) return null;
      used.set(nonce, expires);
      return payload;
    },
  };
}
