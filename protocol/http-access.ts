// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (docs/reading-path.md).
// Who may talk to the HTTP endpoint, and how much: the checks made before a body is read.
//
// - DNS rebinding: a web page can make a browser send requests to 127.0.0.1 under a name the
//   attacker controls. So the `Host` header must name the address we serve, and an `Origin`,
//   when present, must be one we allow: otherwise 403
//   (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Security Warning":
//   servers MUST validate the Origin header).
// - An optional bearer token, compared in constant time, so its bytes cannot be guessed one by
//   one from response times; 401 without it.
// - The body is read up to a limit (413 past it), so a client cannot make us hold more.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

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
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];
const WILDCARD = ['0.0.0.0', '::', '[::]'];

export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host);
}

/** The rules for a server bound to `host`: its own name (and the loopback names when it is loopback). */
export function accessRules(host: string, allowedOrigins: readonly string[], token: string | undefined): AccessRules {
  const hosts = WILDCARD.includes(host) ? undefined : new Set(isLoopback(host) ? LOOPBACK : [host, ...LOOPBACK]);
  return { hosts, origins: new Set(allowedOrigins), token };
}

/** Why a request is refused (status and message), or undefined when it may go on. */
export function refusal(req: IncomingMessage, rules: AccessRules): { status: number; message: string } | undefined {
  const host = hostName(req.headers.host);
  if (rules.hosts && (host === undefined || !rules.hosts.has(host))) {
    return { status: 403, message: `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not this server` };
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

function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  return header.split(':')[0];
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

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  // Digests have one length whatever was sent, so the comparison time says nothing about the token.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The body as text; 'too-large' once it passes `maxBytes` (the rest is not kept); 'not-utf8'. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string | 'too-large' | 'not-utf8'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        resolve('too-large');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        resolve('not-utf8');
      }
    });
    req.on('error', reject);
  });
}
