// The separate bundles beside dist/mcp-tracker.mjs are loaded only when something needs them,
// so a server start does not parse them. Two kinds:
//
// - a command's or an option's (the demo, import and export, --http, help, the PostgreSQL
//   backend): loaded once, before the command runs;
// - a seam's (the store's writes, the prompts' messages): code a server runs only for some
//   requests, loaded on the first such request. Every handler is asynchronous already, so the
//   seam awaits the module (`onFirstUse`, below) and calls it, as lib/store/writes-loader.ts
//   does for every write: `createIssue: async (input) => (await writes()).createIssue(input)`.
//   The server also loads the writes' and the occasional reads' companions ahead, once stdin has
//   been quiet for a moment after its start (lib/main.ts, loadCompanionsWhenQuiet): the seams
//   then find them loaded, and the first write or query does not pay for them. No code cache
//   for the companions: what a companion costs is evaluating it, not compiling it (docs/performance.md).
//
// Every loader (http-loader.ts here, store/writes-loader.ts, tracker/prompts-loader.ts and the
// others) is the same few lines: build.mjs defines `__MCP_TRACKER_<NAME>_BUNDLE__` as the
// companion's file name, resolved beside the file that runs; from source the constant is
// undefined and the module is imported directly.
//
// A companion carries its own copies of the modules it imports, so nothing may cross a seam
// that is told apart by identity (`instanceof`, a class's private fields): what crosses is plain
// data, objects whose methods are called, and errors read by their fields (the store's are
// plain Errors with a `kind`, lib/store/model/errors.ts; the engine's RpcError, a class, carries a
// mark every copy of it shares: protocol/errors.ts, isRpcError).
//
// A user who copied mcp-tracker.mjs alone gets a sentence naming the file to copy beside it, not
// a stack trace: for a command, on stderr (lib/main.ts); for a request, as its error (-32603, the
// server's own failure, with the sentence as the message), whichever read, prompt or completion
// reached the seam; for a tool, as its result with `isError: true` and the sentence, at once or
// as a task alike (lib/tracker/domain-errors.ts).
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, RpcError, isRpcError } from '../protocol/errors.js';

/**
 * In dist/mcp-tracker.mjs the program runs as a script compiled by lib/code-cache.ts, and in
 * Node 20 an import() inside a script compiled from a code cache fails ("A dynamic import
 * callback was not specified"): the launcher hands its own import() to the program instead.
 */
declare const __mcpImport: ((specifier: string) => Promise<unknown>) | undefined;

/**
 * A companion bundle is not beside the server bundle. An RpcError, so that a request reaching a
 * seam is answered with the sentence, not the engine's bare "Internal error" (toRpcError).
 */
export class CompanionMissing extends RpcError {
  /** Read by isCompanionMissing: a companion's own copy of this class is another class. */
  readonly companionMissing = true;
  constructor(message: string) {
    super(ErrorCode.InternalError, message);
  }
}

/** Whether `thrown` is a CompanionMissing, made by this copy of the class or by a companion's. */
export function isCompanionMissing(thrown: unknown): thrown is CompanionMissing {
  return isRpcError(thrown) && (thrown as { companionMissing?: unknown }).companionMissing === true;
}

/**
 * Runs `load` (the loader's own `import(specifier)`: a relative specifier resolves against the
 * module that calls import(), so the call stays in the loader) for `what` needs the module.
 */
export async function importCompanion<Module>(load: () => Promise<unknown>, specifier: string, what: string): Promise<Module> {
  try {
    return (await (typeof __mcpImport === 'function' ? __mcpImport(specifier) : load())) as Module;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && specifier.startsWith('file:')) {
      throw companionMissing(fileURLToPath(specifier), what);
    }
    throw new Error(`cannot load ${what} (${specifier}): ${(error as Error).message}`);
  }
}

/** `load` run on the first call only; every call gets its promise (a failed load stays failed: the files do not change). */
export function onFirstUse<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loaded: Promise<Module> | undefined;
  return () => (loaded ??= load());
}

/**
 * A companion loaded at once, for a seam whose callers cannot wait (the query language:
 * lib/store/queries/jql-loader.ts explains why). In the bundle the companion is CommonJS,
 * which `require` loads synchronously (Node 20 loads an ES module only with a promise);
 * `specifier` is its file URL, or from source a path relative to `base`, the URL of the
 * module asking.
 */
export function requireCompanion<Module>(specifier: string, base: string, what: string): Module {
  const bundled = specifier.startsWith('file:');
  try {
    return createRequire(base)(bundled ? fileURLToPath(specifier) : specifier) as Module;
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' && bundled)
      throw companionMissing(fileURLToPath(specifier), what);
    throw new Error(`cannot load ${what} (${specifier}): ${(error as Error).message}`);
  }
}

const companionMissing = (path: string, what: string): CompanionMissing =>
  new CompanionMissing(
    `${what} needs ${basename(path)} beside this file: copy it from the same dist/ folder (the npm package has both)`,
  );
