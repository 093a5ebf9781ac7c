// The picture in docs/architecture.md, drawn from the imports so it cannot drift: one box per
// layer of the product (protocol/, the tracker, each room of the store, the runner), one arrow
// where a file of one box imports a file of another. Tests, benchmarks and fixtures are left
// out: they may import anything.
//
//   npx tsx scripts/architecture.ts           prints the diagram (mermaid)
//   npx tsx scripts/architecture.ts --write   puts it between the markers in docs/architecture.md
//
// protocol/tests/imports.test.ts fails when the doc's copy differs from what this prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, importGraph } from './import-graph.js';

export const DOC = join(ROOT, 'docs/architecture.md');
const BEGIN = '<!-- architecture:begin (scripts/architecture.ts --write) -->';
const END = '<!-- architecture:end -->';

/** The box a product file belongs to, or undefined for a test, a benchmark or a fixture. */
export function boxOf(file: string): string | undefined {
  if (/^(protocol|lib)\/tests\//.test(file)) return undefined;
  if (file.startsWith('protocol/')) return 'protocol';
  if (file.startsWith('spec-tests/runner/')) return 'runner';
  if (file.startsWith('lib/tracker/')) return 'tracker';
  if (file.startsWith('lib/demo/')) return 'demo';
  const room = /^lib\/store\/([\w-]+)\//.exec(file);
  if (room) return `store/${room[1]}`;
  if (file.startsWith('lib/store/')) return `store/${file.slice('lib/store/'.length)}.ts`;
  if (file === 'lib/companion-bundle') return 'companion-bundle';
  if (/^lib\/[\w-]+$/.test(file)) return 'programs';
  return undefined;
}

/** Box → the boxes its files import, both sorted. */
export function boxGraph(): Map<string, string[]> {
  const arrows = new Map<string, Set<string>>();
  for (const [file, imported] of importGraph(['protocol', 'lib', 'spec-tests/runner'])) {
    const from = boxOf(file);
    if (from === undefined) continue;
    if (!arrows.has(from)) arrows.set(from, new Set());
    for (const target of imported) {
      const to = boxOf(target);
      if (to !== undefined && to !== from) arrows.get(from)!.add(to);
    }
  }
  return new Map([...arrows].sort(([a], [b]) => a.localeCompare(b)).map(([box, to]) => [box, [...to].sort()]));
}

const id = (box: string): string => box.replace(/[^\w]/g, '_');

/** The graph without the arrows a longer path already implies (it has no circle: the test says so). */
export function reduced(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    (graph.get(from) ?? []).some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
  return new Map(
    [...graph].map(([from, to]) => [
      from,
      to.filter((target) => !to.some((other) => other !== target && reaches(other, target))),
    ]),
  );
}

/**
 * The mermaid flowchart: the store's boxes in a box of their own, an arrow from importer to
 * imported unless a longer path implies it.
 */
export function diagram(): string {
  const graph = reduced(boxGraph());
  const node = (box: string): string => `${id(box)}["${box}"]`;
  const boxes = [...graph.keys()];
  const store = boxes.filter((box) => box.startsWith('store/'));
  const lines = [
    'flowchart TD',
    ...boxes.filter((box) => !box.startsWith('store/')).map((box) => `  ${node(box)}`),
    '  subgraph store["lib/store"]',
    ...store.map((box) => `    ${node(box)}`),
    '  end',
    ...[...graph].flatMap(([from, to]) => to.map((target) => `  ${id(from)} --> ${id(target)}`)),
  ];
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** The diagram as the doc holds it between its markers. */
export function diagramInDoc(text: string): string | undefined {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return begin < 0 || end < begin ? undefined : text.slice(begin + BEGIN.length, end).trim();
}

if (process.argv[1] === import.meta.filename) {
  if (process.argv.includes('--write')) {
    const text = readFileSync(DOC, 'utf8');
    const begin = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    if (begin < 0 || end < begin) throw new Error(`${DOC} has no markers ${BEGIN} ... ${END}`);
    writeFileSync(DOC, `${text.slice(0, begin + BEGIN.length)}\n${diagram()}\n${text.slice(end)}`);
  } else process.stdout.write(`${diagram()}\n`);
}
