// The import graph of the repository's TypeScript: which file imports which, type-only imports
// and `import('…')` types included, read from the source text (relative specifiers only: a
// package is no arrow between our files). protocol/tests/imports.test.ts checks it has no
// circle; scripts/architecture.ts draws it by layer for docs/architecture.md.
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

/** `from '…'`, `import '…'` and `import('…')`, each with a relative specifier. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)\.js'/g;

/** Every `.ts` file under `dir` (a path from the root, `/`-separated), tests included. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file under `dirs` (root-relative, without `.ts`) and the files it imports, in the order it imports them. */
export function importGraph(dirs: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(tsFiles)) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const from = posix.dirname(file);
    const imported = [...source.matchAll(SPECIFIER)].map((match) => posix.normalize(posix.join(from, match[1]!)));
    graph.set(file.slice(0, -'.ts'.length), [...new Set(imported)]);
  }
  return graph;
}

/** A circle of imports, as the files on it (the first again at the end), or undefined. */
export function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}
