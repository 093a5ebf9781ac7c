// The guides point at files, and a learner follows them: every relative link in the README, OVERVIEW.md,
// docs/ and the runner's guides leads to a file the repository holds, a `#section` link to a heading
// of its page, and every source path the guides name in backticks (`protocol/peer.ts`) exists. When
// a page moves or a file is renamed, this fails where the guide went stale.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defines } from '../test-support/source-names.js';

const GUIDES = [
  'README.md',
  'OVERVIEW.md',
  'spec-tests/FORMAT.md',
  ...['docs', 'docs/guides'].flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(dir, name)),
  ),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/** Outside fenced code blocks: a shell comment there is not a heading, a path there may be made up. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

export function linkProblems(page: string, text: string, exists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  const body = prose(text);
  for (const [, target] of body.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const file = path === '' ? page : normalize(join(dirname(page), path));
    if (!exists(file)) problems.push(`${page}: link to ${target}, which the repository does not hold`);
    else if (
      anchor !== undefined &&
      file.endsWith('.md') &&
      !anchors(file === page ? text : readFileSync(file, 'utf8')).has(anchor)
    )
      problems.push(`${page}: link to ${target}, which names no heading of ${file}`);
  }
  for (const [, path] of body.matchAll(/`((?:protocol|lib|spec-tests|scripts)\/[\w./-]+\.(?:ts|mjs|md|txt|conf|sh|py))`/g))
    if (!exists(path!)) problems.push(`${page}: names ${path}, which the repository does not hold`);
  return problems;
}

test('every link and source path in the guides leads somewhere', () => {
  const problems = GUIDES.flatMap((page) => linkProblems(page, readFileSync(page, 'utf8'), existsSync));
  assert.equal(problems, []);
});

test('the check sees a missing file, a missing heading and a renamed source file', () => {
  const page = 'docs/sample.md';
  const text = [
    '# Sample',
    '## Where next',
    'See [the tracker](tracker.md), [below](#where-next), [nowhere](gone.md) and [lost](#no-such-part).',
    'The peer is `protocol/peer.ts`; the old one was `protocol/old-peer.ts`.',
    '```sh',
    '# not a heading, and `protocol/made-up.ts` is fine in a code block',
    '```',
  ].join('\n');
  const held = new Set(['docs/sample.md', 'docs/tracker.md', 'protocol/peer.ts']);
  assert.equal(
    linkProblems(page, text, (path) => held.has(path)),
    [
      'docs/sample.md: link to gone.md, which the repository does not hold',
      'docs/sample.md: link to #no-such-part, which names no heading of docs/sample.md',
      'docs/sample.md: names protocol/old-peer.ts, which the repository does not hold',
    ],
  );
});

// "The life of a request" (docs/reading-path.md) draws a request's path with the functions that
// take it. Each name must be declared in protocol/, and where the drawing ties a name to a file
// (`session.ts #contextFor`, `encodeLine (json-rpc.ts)`), in that file.
const CODE_NAME = /^#\w+$|^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$/;

const declares = (source: string, name: string): boolean =>
  defines(source, name) || new RegExp(`(class|interface|type)\\s+${name}\\b`).test(source);

export function undeclaredNames(drawing: string, sources: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const match of drawing.matchAll(/(?:([\w-]+\.ts)\s+)?(?<![\w#.])(#?[A-Za-z_]\w*)(?:\s*\(([\w-]+\.ts))?/g)) {
    const name = match[2]!;
    if (!CODE_NAME.test(name)) continue;
    const file = match[3] ?? match[1];
    const found =
      file === undefined
        ? [...sources.values()].some((source) => declares(source, name))
        : declares(sources.get(file) ?? '', name);
    if (!found) problems.push(`${name}${file === undefined ? '' : ` (${file})`}`);
  }
  return problems;
}

function protocolSources(): Map<string, string> {
  return new Map(
    readdirSync('protocol')
      .filter((name) => name.endsWith('.ts'))
      .map((name) => [name, readFileSync(join('protocol', name), 'utf8')]),
  );
}

test('every function "The life of a request" names is declared where it says', () => {
  const page = readFileSync('docs/reading-path.md', 'utf8');
  const drawing = /## The life of a request[\s\S]*?```\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(drawing, 'docs/reading-path.md draws the life of a request');
  assert.equal(undeclaredNames(drawing!, protocolSources()), []);
});

test('the drawing check sees a function put in the wrong file and one that does not exist', () => {
  const drawing = [
    '   │                  → parseOrThrow(method.params) (validation.ts) → contextFor (context.ts)',
    ' stdio.ts             writer.send → line-writer.ts encodeLine + "\\n" → stdout',
    ' peer.ts              settleEverything: resultMessage(id, result)',
  ].join('\n');
  assert.equal(undeclaredNames(drawing, protocolSources()), [
    'contextFor (context.ts)',
    'encodeLine (line-writer.ts)',
    'settleEverything (peer.ts)',
  ]);
});

// Comments cite the rules of spec-tests/RULES.md by id ("rule 1.6", "rule 2.7, M18", "(A-22)");
// an id that is not there sends the reader nowhere.
const RULE_CITATION = /\brules? ((?:(?:\d+\.\d+|[JM]\d+|A-\d+)(?:, | and )?)+)|\((A-\d+)\)/g;

export function unknownRuleIds(file: string, text: string, known: ReadonlySet<string>): string[] {
  const cited = [...text.matchAll(RULE_CITATION)].flatMap((match) =>
    match[2] !== undefined ? [match[2]] : match[1]!.split(/, | and /).filter((id) => id !== ''),
  );
  return cited.filter((id) => !known.has(id)).map((id) => `${file}: cites rule ${id}, which spec-tests/RULES.md does not hold`);
}

function knownRuleIds(): Set<string> {
  return new Set([...readFileSync('spec-tests/RULES.md', 'utf8').matchAll(/^\*\*([^*]+)\*\*/gm)].map((match) => match[1]!));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'fixtures', 'schemas'].includes(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

test('every rule id a comment or a guide cites is in spec-tests/RULES.md', () => {
  const known = knownRuleIds();
  // This file spells unknown ids out to test the check, so it is left out.
  const files = [...['protocol', 'lib', 'spec-tests'].flatMap(sourceFiles), ...GUIDES].filter(
    (file) => file !== join('spec-tests', 'tests', 'docs-links.test.ts'),
  );
  assert.equal(
    files.flatMap((file) => unknownRuleIds(file, readFileSync(file, 'utf8'), known)),
    [],
  );
});

test('the rule check sees an id that is not there', () => {
  const known = new Set(['1.6', '2.7', 'M18', 'A-22']);
  const text = '// rule 1.6; rules 2.7, M18 and 9.9 (A-22) (A-99)';
  assert.equal(unknownRuleIds('sample.ts', text, known), [
    'sample.ts: cites rule 9.9, which spec-tests/RULES.md does not hold',
    'sample.ts: cites rule A-99, which spec-tests/RULES.md does not hold',
  ]);
});

test.run();
