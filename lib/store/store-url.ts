// Where the tracker's data lives: a journal file (--data, the default) or a PostgreSQL
// database (--store postgres://..., or $MCP_TRACKER_STORE). The URL carries credentials, so
// what is printed about it is always the redacted form.

export const STORE_ENV_VAR = 'MCP_TRACKER_STORE';

export interface PostgresStoreUrl {
  /** The URL as given: handed to the client library, never printed. */
  readonly url: string;
  /** The same without its password (user, host, port, database): for messages. */
  readonly shown: string;
}

/** The PostgreSQL store named by --store or else $MCP_TRACKER_STORE; undefined when neither is set (the journal file). */
export function resolveStoreUrl(flag: string | undefined, env: NodeJS.ProcessEnv): PostgresStoreUrl | undefined {
  const given = flag ?? env[STORE_ENV_VAR];
  if (given === undefined || given === '') return undefined;
  return parsePostgresUrl(given);
}

/** Throws an Error whose message never contains the URL's password. */
export function parsePostgresUrl(text: string): PostgresStoreUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('--store must be a URL such as postgres://user:password@host:5432/database (it could not be parsed)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`--store must be a postgres:// URL; got a ${url.protocol}// URL`);
  }
  return { url: text, shown: redact(url) };
}

function redact(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  shown.search = ''; // options may carry a password too (password=, sslpassword=)
  return shown.href;
}
