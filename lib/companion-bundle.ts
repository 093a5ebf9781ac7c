// The separate bundles beside dist/mcp-tracker.mjs (the demo, import and export, the PostgreSQL
// backend) are loaded only by the commands that need them, so a server start does not parse
// them. A user who copied mcp-tracker.mjs alone gets a sentence naming the file to copy beside
// it, not a stack trace.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * In dist/mcp-tracker.mjs the program runs as a script compiled by lib/code-cache.ts, and in
 * Node 20 an import() inside a script compiled from a code cache fails ("A dynamic import
 * callback was not specified"): the launcher hands its own import() to the program instead.
 */
declare const __mcpImport: ((specifier: string) => Promise<unknown>) | undefined;

/** A companion bundle is not beside the server bundle. */
export class CompanionMissing extends Error {}

/**
 * Runs `load` (the loader's own `import(specifier)`: a relative specifier resolves against the
 * module that calls import(), so the call stays in the loader) for `what` needs the module.
 */
export async function importCompanion<Module>(load: () => Promise<unknown>, specifier: string, what: string): Promise<Module> {
  try {
    return (await (typeof __mcpImport === 'function' ? __mcpImport(specifier) : load())) as Module;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && specifier.startsWith('file:')) {
      const file = basename(fileURLToPath(specifier));
      throw new CompanionMissing(
        `${what} needs ${file} beside this file: copy it from the same dist/ folder (the npm package has both)`,
      );
    }
    throw new Error(`cannot load ${what} (${specifier}): ${(error as Error).message}`);
  }
}
