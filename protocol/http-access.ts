// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (docs/reading-path.md).
// Who may talk to the HTTP endpoint, and how much: the checks made before a body is read.
//
// - DNS rebinding: a web page can make a browser send requests to 127.0.0.1 under a name the
//   attacker controls. So the `Host` header must name the address we serve, and an `Origin`,
//   when present, must be one we allow: otherwise 403
//   (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Security Warning":
//   servers MUST validate the Origin header).
// - An optional bearer token, compared in constant time, so its bytes cannot be guessed one by
//   one from response times; 401 without it. Or per-user tokens: the application's `authenticate`
//   says whom a token names (the SDKs' token verifier), and the request is served as them.
// - The body is read up to a limit (413 past it), so a client cannot make us hold more.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from './context.js';
import type { Refusal } from './http-budget.js';

export interface AccessRules {
  /**
   * Host names (without port) the Host header may carry; undefined for a wildcard address
   * (0.0.0.0, ::), which serves every name the machine has, none of which we can know: there the
   * Origin check and the bearer token are the defence (a rebinding page sends its own Origin).
   */
  hosts: Set<string> | undefined;
  /** Origins (scheme://host[:port]) a browser page may call us from. */
  origins: Set<string>;
  /** The bearer token every request must carry, if any. */
  token: string | undefined;
  /** Per-user tokens, checked by the application: see Authenticate. */
  authenticate: Authenticate | undefined;
}

/**
 * The application's check of a request's bearer token ('' when it carries none): whom it names,
 * or why the request is refused (401 for a token that names nobody; 400 or 403 for a request the
 * token may not make, such as asking for more than the token allows). It must compare tokens
 * without a timing signal, as bearerMatches does.
 */
export type Authenticate = (token: string, req: IncomingMessage) => AuthInfo | { status: 400 | 401 | 403; message: string };

/**
 * A request's authenticated identity: who (handed to the engine) and a digest of the token that
 * says so, which a handshake-era session keeps to serve only requests with the same token.
 */
export interface Identity {
  readonly auth: AuthInfo;
  readonly credential: Buffer;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];
const WILDCARD = ['0.0.0.0', '::', '[::]'];

export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host);
}

/** The rules for a server bound to `host`: its own name (and the loopback names when it is loopback). */
export function accessRules(
  host: string,
  allowedOrigins: readonly string[],
  token: string | undefined,
  authenticate?: Authenticate,
): AccessRules {
  const hosts = WILDCARD.includes(host) ? undefined : new Set(isLoopback(host) ? LOOPBACK : [host, ...LOOPBACK]);
  return { hosts, origins: new Set(allowedOrigins), token, authenticate };
}

/** Who the request is, by the application's per-user tokens; undefined without them. */
export function identify(req: IncomingMessage, rules: AccessRules): Identity | { status: number; message: string } | undefined {
  if (rules.authenticate === undefined) return undefined;
  const token = bearerToken(req.headers.authorization);
  const outcome = rules.authenticate(token, req);
  return 'status' in outcome ? outcome : { auth: outcome, credential: digest(token) };
}

/** Whether two identities rest on the same token, compared in constant time. */
export function sameCredential(a: Identity | undefined, b: Identity | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return timingSafeEqual(a.credential, b.credential);
}

/** Why a request is refused (status and message), or undefined when it may go on. */
export function refusal(req: IncomingMessage, rules: AccessRules): { status: number; message: string } | undefined {
  // An absolute-form target (`POST http://other.example/mcp`) names the host itself, and then
  // "the recipient MUST ignore the received Host header field and instead use the host
  // information of the request-target" (RFC 9112 section 3.2.2): so that authority is the one checked.
  const authority = targetAuthority(req.url) ?? req.headers.host;
  const host = hostName(authority);
  if (rules.hosts && (host === undefined || !rules.hosts.has(host))) {
    return { status: 403, message: `Forbidden: Host ${JSON.stringify(authority ?? '')} is not this server` };
  }
  if (host === undefined && authority !== undefined) {
    return { status: 400, message: `Bad Request: Host ${JSON.stringify(authority)} is not host[:port]` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, rules)) {
    return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
  }
  if (rules.token !== undefined && !bearerMatches(req.headers.authorization, rules.token)) {
    return { status: 401, message: 'Unauthorized: a valid bearer token is required' };
  }
  return undefined;
}

/**
 * The host of `host[:port]`, or undefined when it is not that: RFC 9110 section 7.2, `Host =
 * uri-host [ ":" port ]` with `port = *DIGIT`, so `127.0.0.1:evil` names no host of ours.
 */
function hostName(header: string | undefined): string | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::\d{0,5})?$/.exec(header ?? '');
  return match?.[1];
}

/** The authority of an absolute-form request target, or undefined for the usual origin-form (`/mcp`). */
function targetAuthority(target: string | undefined): string | undefined {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(target ?? '');
  return match ? match[1]!.slice(match[1]!.lastIndexOf('@') + 1) : undefined;
}

/** A page served from this machine may call a loopback server; any other origin only when listed. */
function originAllowed(origin: string, rules: AccessRules): boolean {
  if (rules.origins.has(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return rules.hosts !== undefined && isLoopback(url.hostname) && [...rules.hosts].every(isLoopback);
}

/** The token of an `Authorization: Bearer <token>` header; '' when there is none. */
function bearerToken(header: string | undefined): string {
  // "It uses a case-insensitive token as a means to identify the authentication scheme" (RFC
  // 7235 section 2.1, now RFC 9110 section 11.1): `bearer` and `BEARER` are `Bearer`.
  return /^bearer +(.*)$/is.exec(header ?? '')?.[1] ?? '';
}

/** Digests have one length whatever was sent, so comparing two takes a time that says nothing about either. */
export const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function bearerMatches(header: string | undefined, token: string): boolean {
  return timingSafeEqual(digest(bearerToken(header)), digest(token));
}

/** One decoder for every body: without `stream`, each decode stands alone. `fatal`: bad UTF-8 is refused, not replaced. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text; 'too-large' once it passes `maxBytes` (the rest is not kept); 'not-utf8';
 * 'gone' when the client went away before its end. `reserve`, for a body of no declared length,
 * takes each chunk's bytes from the process's budget (http-budget.ts) before it is kept; its
 * refusal stops the reading there.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  reserve?: (bytes: number) => Refusal | undefined,
): Promise<string | 'too-large' | 'not-utf8' | 'gone' | Refusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (outcome: 'too-large' | Refusal) => {
      chunks.length = 0;
      req.removeAllListeners('data');
      resolve(outcome);
      req.resume();
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return stop('too-large');
      const refused = reserve?.(chunk.length);
      if (refused !== undefined) return stop(refused);
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(UTF8.decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      } catch {
        resolve('not-utf8');
      }
    });
    // A client that leaves mid-body (or is cut by the request timeout) is nobody's error.
    req.on('error', () => resolve('gone'));
    req.on('close', () => resolve('gone'));
  });
}
