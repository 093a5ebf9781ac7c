// Pagination for the list methods (https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination).
//
// - The cursor is opaque to the client: we encode an offset as base64url JSON, so nobody
//   builds one by hand, and we can add fields later without breaking anyone.
// - A cursor we did not issue, or one that no longer points inside the list, is -32602
//   (the page says servers SHOULD answer invalid cursors that way).
// - The last page has no `nextCursor` at all: not null, not "" (rule 11: some clients loop on an empty cursor;
//   in 2026-07-28 "" is even a valid cursor).
// - Order must be deterministic, or pages skip and repeat: callers pass a stable list.

import { invalidParams } from './errors.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** A source of items that can be read a page at a time without building the whole list. */
export interface PagedSource<T> {
  count(): number;
  slice(offset: number, limit: number): T[];
}

export function arraySource<T>(items: readonly T[]): PagedSource<T> {
  return { count: () => items.length, slice: (offset, limit) => items.slice(offset, offset + limit) };
}

export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown }).offset;
  } catch {
    offset = undefined;
  }
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw invalidParams('Invalid params: unknown cursor; start again without one', { cursor });
  }
  return offset as number;
}

export function paginate<T>(source: PagedSource<T>, cursor: string | undefined, pageSize: number): Page<T> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const total = source.count();
  // offset === total is a cursor we never hand out (the last page has none), so it is stale.
  if (offset > 0 && offset >= total) {
    throw invalidParams('Invalid params: the cursor is past the end of the list; start again without one', { cursor });
  }
  const items = source.slice(offset, pageSize);
  const next = offset + items.length;
  return next < total ? { items, nextCursor: encodeCursor(next) } : { items };
}

/** Several sources read as one list, in order (e.g. fixed resources, then one per issue). */
export function concatSources<T>(sources: readonly PagedSource<T>[]): PagedSource<T> {
  return {
    count: () => sources.reduce((sum, source) => sum + source.count(), 0),
    slice(offset, limit) {
      const out: T[] = [];
      for (const source of sources) {
        const size = source.count();
        if (offset >= size) {
          offset -= size;
          continue;
        }
        out.push(...source.slice(offset, limit - out.length));
        offset = 0;
        if (out.length >= limit) break;
      }
      return out;
    },
  };
}
