// A request that names its own Host header (fixtures/http/host-foreign-*: a DNS rebinding page's
// request). fetch sends the URL's host whatever the headers say (the Fetch standard forbids
// setting Host), so such a request goes out through node:http, and its answer comes back as a
// fetch Response for the rest of the runner to read the same way.
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** Statuses whose response has no body (a Response built with one throws). */
const NO_BODY_STATUSES = new Set([204, 205, 304]);

export function fetchWithHost(
  url: string,
  init: { method: string; headers: Headers; body?: string; signal: AbortSignal },
): Promise<Response> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      target,
      { method: init.method, headers: Object.fromEntries(init.headers), signal: init.signal },
      (answer) => resolve(asResponse(answer)),
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

function asResponse(answer: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  const status = answer.statusCode ?? 500;
  if (NO_BODY_STATUSES.has(status)) {
    answer.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(answer) as ReadableStream<Uint8Array>, { status, headers });
}
