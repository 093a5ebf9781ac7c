// The two kinds of failure the store reports, as plain Errors with data.
//
// - DomainError: the caller asked for something invalid (unknown key, bad
//   status...). The message says how to fix the call; it is safe to show to
//   the user or a model as-is.
// - StoreFileError: the data file cannot be used (corrupt line, newer format,
//   lock timeout, replaced file...). It names the file (and line when there is
//   one) and what to do. The store never "repairs" such a file by rewriting it.
//
// Plain Error objects with a `kind` tag instead of subclasses: callers switch
// on `isDomainError(e)` / `isStoreFileError(e)` and read the fields.

export type DomainErrorCode = 'not_found' | 'invalid_argument' | 'conflict' | 'unavailable';

export interface DomainError extends Error {
  readonly kind: 'domain';
  readonly code: DomainErrorCode;
}

export type StoreFileErrorReason =
  | 'corrupt' // a complete line that does not parse or validate
  | 'newer_version' // written by a newer mcp-tracker
  | 'not_a_journal' // some other file
  | 'dangling_link' // a symbolic link whose target does not exist
  | 'lock_timeout' // another process held the lock too long
  | 'replaced' // the file was replaced, truncated or removed under us
  | 'read_only' // a failed write could not be undone: no more writes until restart
  | 'closed'; // the store was closed

export interface StoreFileError extends Error {
  readonly kind: 'store_file';
  readonly reason: StoreFileErrorReason;
  readonly file: string;
  /** 1-based line in the journal, when the problem is on one line. */
  readonly line: number | null;
}

export function domainError(code: DomainErrorCode, message: string): DomainError {
  return Object.assign(new Error(message), { name: 'DomainError', kind: 'domain' as const, code });
}

export function storeFileError(reason: StoreFileErrorReason, file: string, line: number | null, message: string): StoreFileError {
  const where = line === null ? file : `${file}:${line}`;
  return Object.assign(new Error(`${where}: ${message}`), {
    name: 'StoreFileError',
    kind: 'store_file' as const,
    reason,
    file,
    line,
  });
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof Error && (error as Partial<DomainError>).kind === 'domain';
}

export function isStoreFileError(error: unknown): error is StoreFileError {
  return error instanceof Error && (error as Partial<StoreFileError>).kind === 'store_file';
}

/** Node's fs errors carry a string `code` such as 'EEXIST'. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
