// Where a store test keeps its data: a data file in a temporary folder, or, when
// MCP_TEST_STORE_BACKEND=postgres (store-postgres.test.ts runs the suites so), a database of
// its own. Every place is removed when the suite ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabases, freshStore } from '../../spec-tests/tests-postgres/postgres-test-db.js';

export const ON_POSTGRES = process.env.MCP_TEST_STORE_BACKEND === 'postgres';

export interface StorePlaces {
  /** A data file in a fresh folder (its parent `data/` not yet made), whatever the backend. */
  file(): string;
  /** A fresh place for the backend under test: a data file, or a database's URL. */
  place(): Promise<string>;
  /** Removes every folder and database made (for test.after). */
  removeAll(): Promise<void>;
}

export function storePlaces(prefix: string): StorePlaces {
  const directories: string[] = [];
  const file = (): string => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    directories.push(directory);
    return path.join(directory, 'data', 'tracker.jsonl');
  };
  return {
    file,
    place: async () => (ON_POSTGRES ? freshStore() : file()),
    async removeAll() {
      for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
      if (ON_POSTGRES) await dropDatabases();
    },
  };
}
