// What mcp-conform carries inside itself, so that its bundle works alone in an empty folder: the
// generic fixtures (they hold for any MCP server), the HTTP transport's fixtures (run with --url)
// and the official JSON Schemas of every revision.
//
// build.mjs packs spec-tests/fixtures/generic, spec-tests/fixtures/http and spec-tests/schemas into one brotli-compressed,
// base64 JSON string and defines it as __MCP_CONFORM_BUILTIN__ (about a tenth of their size).
// Run from source (tests, tsx), there is no such constant and the same folders are read from
// the tree instead, so both ways see the same files.
import { brotliDecompressSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { findFixtureFiles, type FixtureFile } from './fixture-files.js';
import { schemaDirectory, type SchemaSource } from './schema-source.js';

declare const __MCP_CONFORM_BUILTIN__: string | undefined;

/** The packed form, as build.mjs writes it. */
export interface BuiltinPayload {
  /** Fixture name (generic/ping/ping-id-zero) -> the fixture's text. */
  fixtures: Record<string, string>;
  /** Revision (2025-11-25) -> the text of its schema.json. */
  schemas: Record<string, string>;
}

let unpacked: BuiltinPayload | undefined;

function payload(): BuiltinPayload | undefined {
  if (typeof __MCP_CONFORM_BUILTIN__ !== 'string') return undefined;
  unpacked ??= JSON.parse(
    brotliDecompressSync(Buffer.from(__MCP_CONFORM_BUILTIN__, 'base64')).toString('utf8'),
  ) as BuiltinPayload;
  return unpacked;
}

/** How a built-in fixture's path starts in reports (it has no file). */
export const BUILTIN_PREFIX = '(built in) ';

const treePath = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** The fixtures run when no fixture paths are given: the generic ones, and over HTTP the transport's own too. */
export function builtinFixtures(overHttp: boolean): FixtureFile[] {
  const folders = overHttp ? ['generic', 'http'] : ['generic'];
  const packed = payload();
  if (packed === undefined) return findFixtureFiles(folders.map((folder) => treePath(`../fixtures/${folder}`)));
  return Object.entries(packed.fixtures)
    .filter(([name]) => folders.includes(name.split('/')[0] ?? ''))
    .map(([name, text]) => ({ path: `${BUILTIN_PREFIX}${name}.txtar`, name, text }))
    .sort((left, right) => left.name.localeCompare(right.name));
}

/** The official schemas, used unless --schema-dir names others or --no-schema turns them off. */
export function builtinSchemas(): SchemaSource {
  const packed = payload();
  if (packed === undefined) return schemaDirectory(treePath('../schemas'));
  return { describe: 'the built-in schemas', read: (version) => packed.schemas[version] };
}
