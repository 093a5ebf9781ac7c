// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// The outer part of dist/mcp-tracker.mjs: it starts the program from V8's code cache. The
// program itself is lib/main.ts.
//
// Node 20 has no compile cache for ES modules (module.enableCompileCache() is Node 22.1+), and
// compiling the bundle is a large part of a start (docs/performance.md). So build.mjs bundles the
// program as a script, wrapped in a function, and stores its text in this file as a string;
// this launcher compiles it with vm.Script, handing V8 the code cache that an earlier start
// wrote, and writes one after a start when there was none, or when V8 refused the one there.
//
// The cache is a user's cache (XDG_CACHE_HOME, ~/.cache, ~/Library/Caches, %LOCALAPPDATA%; the
// temporary folder if there is no home), one file per program, bundle, Node and flags:
// `mcp-tracker-<bundle hash>-<node version>-<arch>-<flags hash>.v8cache`, at most
// KEPT_PER_PROGRAM of them. It is never a reason to fail a start: a cache that cannot be read,
// written or trusted is a start without one.
//
// V8 checks a code cache's version, flags and the length of the source, not the source itself
// nor, in a release build, the checksum of its data: a damaged file can crash the process. So
// the file starts with the SHA-256 of what follows, and the name carries the bundle's hash.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The program's text: `(function (require, __mcpBundleUrl, __mcpAfterCodeCache, __mcpImport) { ... })`. */
declare const __MCP_PROGRAM_SOURCE__: string;
/** The SHA-256 of that text, from build.mjs, shortened. */
declare const __MCP_PROGRAM_HASH__: string;
/** The program's name: the cache file's prefix. */
declare const __MCP_PROGRAM_NAME__: string;

/** Older caches of the same program kept beside the current one (other versions, Node releases). */
const KEPT_PER_PROGRAM = 4;
/** A start that found no usable cache writes one this long after it, or at exit if sooner. */
const WRITE_AFTER_MS = 1000;
const CHECKSUM_BYTES = 32;

const bundlePath = fileURLToPath(import.meta.url);

function cacheFolder(): string {
  const env = process.env;
  try {
    if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'mcp-by-hand');
    if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'mcp-by-hand', 'Cache');
    if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'mcp-by-hand');
    return join(homedir(), '.cache', 'mcp-by-hand');
  } catch {
    return join(tmpdir(), 'mcp-by-hand-cache');
  }
}

const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();

/** V8 refuses a cache made under other flags: they are part of the name, so two setups do not overwrite each other. */
function cacheFile(folder: string): string {
  const flags = sha256(`${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}`)
    .toString('hex')
    .slice(0, 8);
  return join(folder, `${__MCP_PROGRAM_NAME__}-${__MCP_PROGRAM_HASH__}-${process.version}-${process.arch}-${flags}.v8cache`);
}

/** The cache's data if the file is there and whole, else undefined. */
function readCache(file: string): Buffer | undefined {
  try {
    const bytes = readFileSync(file);
    const data = bytes.subarray(CHECKSUM_BYTES);
    return bytes.length > CHECKSUM_BYTES && sha256(data).equals(bytes.subarray(0, CHECKSUM_BYTES)) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place: a start running at the same time reads the old file or the new one. */
function writeCache(folder: string, file: string, data: Buffer): void {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.concat([sha256(data), data]), { mode: 0o600 });
    renameSync(partial, file);
    removeOldCaches(folder, file);
  } catch {
    // An unwritable cache: the next start compiles the program again, as this one did.
  }
}

function removeOldCaches(folder: string, kept: string): void {
  const others = readdirSync(folder)
    .filter((name) => name.startsWith(`${__MCP_PROGRAM_NAME__}-`) && name.endsWith('.v8cache'))
    .map((name) => join(folder, name))
    .filter((path) => path !== kept)
    .map((path) => ({ path, at: statSync(path).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of others.slice(KEPT_PER_PROGRAM - 1)) unlinkSync(path);
}

const folder = cacheFolder();
const file = cacheFile(folder);
const cachedData = readCache(file);
const script = new Script(__MCP_PROGRAM_SOURCE__, {
  filename: bundlePath,
  cachedData,
});

// What waits for the cache: V8 refuses a cache written after a change of its flags, so the
// program's own flags (lib/after-code-cache.ts) wait until it is written.
const waiting: (() => void)[] = [];
let settled = cachedData !== undefined && !script.cachedDataRejected;

function settle(): void {
  if (settled) return;
  settled = true;
  writeCache(folder, file, script.createCachedData());
  for (const then of waiting.splice(0)) then();
}

if (!settled) {
  // Written after the start, so that it holds the functions a start compiled, not only the top level.
  setTimeout(settle, WRITE_AFTER_MS).unref();
  process.once('exit', settle);
}

const afterCodeCache = (then: () => void): void => {
  if (settled) then();
  else waiting.push(then);
};

// The program loads its companion bundles (the HTTP transport, the demo...) with this import():
// one inside a script compiled from a code cache fails in Node 20 (lib/companion-bundle.ts).
const importModule = (specifier: string): Promise<unknown> => import(specifier);

type Program = (require: NodeRequire, url: string, after: typeof afterCodeCache, load: typeof importModule) => void;
(script.runInThisContext() as Program)(createRequire(import.meta.url), import.meta.url, afterCodeCache, importModule);
