// Multi round-trip requests (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr; rule 15.2).
//
// In 2026-07-28 a server never sends requests to the client. When a tool needs something
// from the user, it answers with an interim result, `resultType: "input_required"`, holding
// the questions (`inputRequests`, here an elicitation form) and an opaque `requestState`.
// The client asks the user and calls again — a new request with a new id — passing the
// answers in `inputResponses` and the `requestState` back unchanged.
//
// The requestState travels through the client, so it is attacker-controlled: it MUST be
// integrity-protected when it affects what the server does. Ours is HMAC-SHA256 over its
// payload, with a key made for this process, an expiry, and a nonce used at most once (a
// replayed state would otherwise create the same issue twice).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import type { ClientCapabilities } from './schemas.js';

/** One field of an elicitation form: the flat, primitive-only schema the spec allows. */
export interface FormField {
  type: 'string' | 'number' | 'integer' | 'boolean';
  title?: string;
  description?: string;
  enum?: string[];
}

/** Arguments a tool may ask the user for, when a 2026-07-28 call leaves them out. */
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

export function formRequest(ask: AskForMissing, missing: readonly string[], requestState: string): InputRequiredResult {
  const properties = Object.fromEntries(missing.map((name) => [name, ask.fields[name]]));
  return {
    resultType: 'input_required',
    inputRequests: {
      [FORM_KEY]: {
        method: 'elicitation/create',
        params: { mode: 'form', message: ask.message, requestedSchema: { type: 'object', properties, required: [...missing] } },
      },
    },
    requestState,
  };
}

export interface SealedState<T> {
  seal(payload: T): string;
  /** The payload, or null if the state was forged, altered, expired or already used. */
  open(token: string): T | null;
}

export function createStateSealer<T>(key: Uint8Array = randomBytes(32), ttlMs = 10 * 60_000): SealedState<T> {
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
