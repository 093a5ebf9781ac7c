// dist/mcp-tracker.mjs starts from V8's code cache (lib/code-cache.ts): the first start writes
// it to the user's cache folder, the next ones use it, and no state of that folder fails a start.
// Whether V8 took a cache is seen from outside by the file: one it refused is written again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BUNDLE = join(process.cwd(), 'dist', 'mcp-tracker.mjs');
const INITIALIZE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';

/** Starts the server with `cacheHome` as XDG_CACHE_HOME, sends initialize, closes stdin; returns its stderr. */
function start(cacheHome: string): string {
  const run = spawnSync(process.execPath, [BUNDLE, '--ephemeral'], {
    input: INITIALIZE,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stdout, /^\{"jsonrpc":"2.0","id":1,"result":\{"protocolVersion":"2025-11-25"/);
  return run.stderr;
}

/** The program's cache files in the folder, by name. */
function caches(cacheHome: string): string[] {
  const folder = join(cacheHome, 'mcp-by-hand');
  return readdirSync(folder)
    .filter((name) => name.startsWith('mcp-tracker-'))
    .map((name) => join(folder, name));
}

/** A cache file is the SHA-256 of its data, then the data. */
function isWhole(file: string): boolean {
  const bytes = readFileSync(file);
  return createHash('sha256').update(bytes.subarray(32)).digest().equals(bytes.subarray(0, 32));
}

function withCacheHome(run: (cacheHome: string) => void): void {
  const cacheHome = mkdtempSync(join(tmpdir(), 'mcp-code-cache-'));
  try {
    run(cacheHome);
  } finally {
    rmSync(cacheHome, { recursive: true, force: true });
  }
}

/** The cache of the first start, and its inode: a file written again is a new file, renamed into place. */
function firstStart(cacheHome: string): { file: string; inode: number } {
  start(cacheHome);
  const [file, ...more] = caches(cacheHome);
  assert.ok(file, 'the first start wrote a code cache');
  assert.equal(more, []);
  return { file, inode: statSync(file).ino };
}

test('the first start writes the code cache, keyed by the bundle and Node; the next start uses it as it is', () => {
  withCacheHome((cacheHome) => {
    const { file, inode } = firstStart(cacheHome);
    assert.match(file, new RegExp(`mcp-tracker-[0-9a-f]{16}-${process.version}-${process.arch}-[0-9a-f]{8}\\.v8cache$`));
    assert.ok(isWhole(file));
    start(cacheHome);
    assert.is(statSync(file).ino, inode, 'a cache V8 took is not written again');
  });
});

test('a damaged cache (its data changed, the file whole in length) is not handed to V8, and is written again', () => {
  withCacheHome((cacheHome) => {
    const { file, inode } = firstStart(cacheHome);
    const bytes = readFileSync(file);
    for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 512; i++) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
    writeFileSync(file, bytes);
    start(cacheHome);
    assert.is.not(statSync(file).ino, inode);
    assert.ok(isWhole(file));
  });
});

test('a stale cache (whole, but V8 refuses its data) and a truncated one are written again', () => {
  withCacheHome((cacheHome) => {
    const { file } = firstStart(cacheHome);
    const data = randomBytes(4096);
    for (const bytes of [Buffer.concat([createHash('sha256').update(data).digest(), data]), readFileSync(file).subarray(0, 20)]) {
      writeFileSync(file, bytes);
      const inode = statSync(file).ino;
      start(cacheHome);
      assert.is.not(statSync(file).ino, inode);
      assert.ok(isWhole(file));
    }
  });
});

test('caches of other versions of the bundle: the oldest are removed, four kept in all', () => {
  withCacheHome((cacheHome) => {
    const folder = join(cacheHome, 'mcp-by-hand');
    mkdirSync(folder, { recursive: true });
    for (let age = 1; age <= 6; age++) {
      const old = join(folder, `mcp-tracker-${String(age).padStart(16, '0')}-v0.0.0-x64-00000000.v8cache`);
      writeFileSync(old, 'old');
      utimesSync(old, new Date(Date.now() - age * 86_400_000), new Date(Date.now() - age * 86_400_000));
    }
    writeFileSync(join(folder, 'another-program.v8cache'), 'not ours');
    start(cacheHome);
    const kept = caches(cacheHome).map((path) => path.slice(folder.length + 1));
    assert.is(kept.length, 4);
    for (const age of [1, 2, 3])
      assert.ok(kept.includes(`mcp-tracker-${String(age).padStart(16, '0')}-v0.0.0-x64-00000000.v8cache`));
    assert.ok(readdirSync(folder).includes('another-program.v8cache'));
  });
});

test('a cache folder that cannot be made (its parent a file) is a start without a cache, and no word of it', () => {
  withCacheHome((cacheHome) => {
    const notAFolder = join(cacheHome, 'file');
    writeFileSync(notAFolder, '');
    const stderr = start(notAFolder);
    assert.not.match(stderr, /cache|ENOTDIR/i);
  });
});

test.run();
