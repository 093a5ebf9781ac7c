// What makes two requests "the same" for the floor's canned answers: the method, plus the
// tool or prompt name, or the resource URI's kind (its path without the last segment, so
// every jira://issue/KEY shares one answer, as the floor computes nothing).

export function signatureOf(method: unknown, params: unknown): string {
  const p = (typeof params === 'object' && params !== null ? params : {}) as { name?: unknown; uri?: unknown };
  if (typeof p.name === 'string') return `${String(method)} ${p.name}`;
  if (typeof p.uri === 'string') return `${String(method)} ${p.uri.slice(0, Math.max(p.uri.lastIndexOf('/'), 0))}`;
  return String(method);
}

/** A file name per signature; no hashing, so the floor loads nothing but fs and path. */
export const cannedFileName = (signature: string): string => `${signature.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
