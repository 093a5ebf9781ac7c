// The PostgreSQL server the team-mode tests use: $MCP_TEST_POSTGRES_URL (a superuser on a
// throwaway server: .ci/run and scripts/postgres-dev.sh start one). Each test gets a schema of
// its own (far cheaper to create than a database; the URL's options put it first on the search
// path), or a database when it must lock everyone out; both are dropped at the end. Without the variable the tests are skipped with a `skip`
// line (spec-tests/run-all.mjs lists it), except in CI ($CI set), where they must run: there
// they fail instead, so a CI that lost its database cannot pass by skipping.
import { test } from 'uvu';
import pg from 'pg';

export const POSTGRES_URL = process.env.MCP_TEST_POSTGRES_URL;

/** `test`, or a stand-in that skips visibly (outside CI) or fails (in CI) when there is no database. */
export function postgresTest(suite: string): typeof test {
  if (POSTGRES_URL !== undefined && POSTGRES_URL !== '') return test;
  if (process.env.CI) {
    const failing = ((name: string) =>
      test(name, () => {
        throw new Error('CI is set but MCP_TEST_POSTGRES_URL is not: the PostgreSQL tests must run in CI');
      })) as unknown as typeof test;
    return Object.assign(failing, { skip: test.skip, only: test.only, before: test.before, after: test.after });
  }
  console.log(`skip ${suite}: set MCP_TEST_POSTGRES_URL to a PostgreSQL server (npm run db:start prints one)`);
  // test.skip has no hooks and no run: the suite's clean-up has nothing to clean then.
  const skipped = ((name: string, handler: Parameters<typeof test>[1]) => test.skip(name, handler)) as unknown as typeof test;
  const noHook = (() => {}) as unknown as typeof test.after;
  return Object.assign(skipped, { skip: test.skip, only: test.skip, before: noHook, after: noHook, run: test.run });
}

const created: string[] = [];
const schemas: string[] = [];
let counter = 0;
const freshName = (): string => `tracker_test_${process.pid}_${++counter}_${Date.now() % 100_000}`;

/** A new empty schema in the server's database; the URL that works in it. */
export async function freshStore(): Promise<string> {
  const name = freshName();
  await admin((client) => client.query(`CREATE SCHEMA ${name}`));
  schemas.push(name);
  const url = new URL(POSTGRES_URL ?? '');
  url.searchParams.set('options', `-c search_path=${name}`);
  return url.href;
}

/** A new empty database; its URL. */
export async function freshDatabase(): Promise<string> {
  const name = freshName();
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  created.push(name);
  const url = new URL(POSTGRES_URL ?? '');
  url.pathname = `/${name}`;
  return url.href;
}

/** Runs statements as the server's administrator (the URL's user, on its own database). */
export async function admin<T>(work: (client: pg.Client) => Promise<T>, url = POSTGRES_URL ?? ''): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a test may kill this very connection: its queries fail, which is enough
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops the schemas and databases this process created (their connections first). */
export async function dropDatabases(): Promise<void> {
  for (const name of schemas.splice(0))
    await admin((client) => client.query(`DROP SCHEMA ${name} CASCADE`)).catch(() => undefined);
  for (const name of created.splice(0)) {
    await admin(async (client) => {
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
    }).catch(() => undefined);
  }
}
