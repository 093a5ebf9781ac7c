// Stores on fresh demo data in temporary folders for store tests, removed when the suite ends,
// and the domain error a call must fail with.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDomainError, openStore, type TrackerStore } from '../store/index.js';

export interface DemoStores {
  /** A store on a fresh demo data file, or on `file` when given. */
  open(file?: string): Promise<TrackerStore>;
  /** Removes every folder `open` made (for test.after). */
  removeAll(): void;
}

export function demoStores(prefix: string): DemoStores {
  const directories: string[] = [];
  return {
    open(file) {
      const directory = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
      directories.push(directory);
      return openStore({ path: file ?? path.join(directory, 'tracker.jsonl'), log: () => {}, watch: false });
    },
    removeAll() {
      for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The message of the DomainError `run` fails with; any other outcome fails the test. */
export async function domainFailure(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isDomainError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a DomainError; the call succeeded');
}
