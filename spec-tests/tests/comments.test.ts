// Comments stay true: a file a comment names exists, and the code's comments say what and why,
// not how fast something once was; measurements live in docs/performance.md, whose own
// references to the code must exist too.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/** The repository's own sources, under `dir`: .ts and .mjs files, without what is built or installed. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'fixtures', '.git'].includes(entry.name) ? [] : sources(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const comments = (file: string): string[] => readFileSync(file, 'utf8').match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [];

/** What build.mjs and the bench write into dist/: named in comments, absent from a fresh clone. */
const BUILT = new Set([
  'mcp-tracker.mjs',
  'mcp-tracker-postgres.mjs',
  'mcp-tracker-demo.mjs',
  'mcp-tracker-io.mjs',
  'mcp-tracker-http.mjs',
  'mcp-tracker-help.mjs',
  'mcp-tracker-writes.mjs',
  'mcp-tracker-prompts.mjs',
  'mcp-conform.mjs',
  'mcp-conformance-server.mjs',
  'sdk-tracker.mjs',
  'sdk2-tracker.mjs',
  'floor.mjs',
  'http-floor.mjs',
]);

test('every source file a comment names exists', () => {
  const all = ['protocol', 'lib', 'spec-tests', 'scripts'].flatMap(sources).concat('build.mjs');
  const present = new Set(all.map((file) => basename(file)));
  const missing = all.flatMap((file) =>
    comments(file)
      .flatMap((comment) => [...comment.matchAll(/\b[\w.-]+\.(?:ts|mjs)\b/g)].map((match) => basename(match[0])))
      .filter((name) => !present.has(name) && !BUILT.has(name))
      .map((name) => `${file}: ${name}`),
  );
  assert.equal(missing, []);
});

// "was 5% of a ping", "took 20 ms", "cost 29 ms ... instead of 1", "7% more throughput".
const MEASUREMENT =
  /\d+(\.\d+)?\s?%\s+(of|more|less|faster|slower)\b|\b(took|was|were|cost|costs)\b[^.;]*?\d+(\.\d+)?\s?(ms|µs|s|GB|MB|MiB)\b|instead of \d/;

test('the comments of protocol/, lib/ and build.mjs hold no measurements (docs/performance.md does)', () => {
  const files = ['protocol', 'lib'].flatMap(sources).concat('build.mjs');
  const found = files.flatMap((file) =>
    comments(file)
      .flatMap((comment) => comment.split('\n'))
      .filter((line) => MEASUREMENT.test(line))
      .map((line) => `${file}: ${line.trim()}`),
  );
  assert.equal(found, []);
});

test('the measurement check sees the forms figures take in comments', () => {
  for (const line of [
    '// making one per request was 15% of the time of a ping',
    ' * took 2.6 GB and 26 s to parse',
    ' * made an 8 MiB message cost 29 ms here instead of 1',
    '// 30 MiB more resident memory for about 7% more throughput',
  ]) {
    assert.ok(MEASUREMENT.test(line), line);
  }
  for (const line of ['// a signal must end us within 2 s', '/** Default: 5000 ms. */', '// capped at 100 values']) {
    assert.not.ok(MEASUREMENT.test(line), line);
  }
});

test('every file docs/performance.md names exists', () => {
  const doc = readFileSync('docs/performance.md', 'utf8');
  const named = [...doc.matchAll(/`((?:protocol|lib|spec-tests)\/[\w./-]+\.(?:ts|md))`/g)].map((match) => match[1]!);
  assert.ok(named.length > 0, 'docs/performance.md names no file');
  assert.equal(
    named.filter((path) => !existsSync(path)),
    [],
  );
});

// A citation a reader can follow: a full https://modelcontextprotocol.io/specification/... or
// https://www.jsonrpc.org/specification#... link, or a rule id of spec-tests/RULES.md. Never an
// abbreviation defined in some other file ("S/2025-11-25/basic"), a section sign ("JSON-RPC
// 2.0 §5"), or a document the repository does not hold.
const SHORTHAND = /(^|[\s(`'"])S\/(\{v\}|\d{4}-\d{2}-\d{2})\/|§/;

/** Markdown files a text names ("RULES.md", "docs/performance.md") that the repository does not hold. */
function missingDocuments(text: string, present: ReadonlySet<string>): string[] {
  return [...text.matchAll(/\b[\w./-]*[A-Za-z]\.md\b/g)].map((match) => basename(match[0])).filter((name) => !present.has(name));
}

/** The repository's Markdown files, by name, outside what is installed or generated elsewhere. */
function markdownNames(dir = '.'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return ['node_modules', 'dist', '.git'].includes(entry.name) ? [] : markdownNames(join(dir, entry.name));
    return entry.name.endsWith('.md') ? [entry.name] : [];
  });
}

/** What a learner reads: the code's comments and the guides. */
function learnerTexts(): { file: string; text: string }[] {
  // This file spells the forbidden forms out to describe them, so it is left out.
  const code = ['protocol', 'lib', 'spec-tests']
    .flatMap(sources)
    .concat('build.mjs')
    .filter((file) => file !== join('spec-tests', 'tests', 'comments.test.ts'));
  const docs = readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  const guides = ['README.md', 'OVERVIEW.md', 'spec-tests/FORMAT.md', ...docs];
  return [
    ...code.map((file) => ({ file, text: comments(file).join('\n') })),
    ...guides.map((file) => ({ file, text: readFileSync(file, 'utf8') })),
  ];
}

function citationProblems(texts: { file: string; text: string }[], present: ReadonlySet<string>): string[] {
  return texts.flatMap(({ file, text }) => [
    ...text
      .split('\n')
      .filter((line) => SHORTHAND.test(line))
      .map((line) => `${file}: shorthand citation: ${line.trim()}`),
    ...missingDocuments(text, present).map((name) => `${file}: names ${name}, which the repository does not hold`),
  ]);
}

test('comments and guides cite full links and files the repository holds, never a shorthand', () => {
  assert.equal(citationProblems(learnerTexts(), new Set(markdownNames())), []);
});

test('the citation check sees a shorthand, a section sign and a missing document', () => {
  const present = new Set(markdownNames());
  const broken = [
    '// MUST echo the id (S/{v}/basic "Responses")',
    ' * see S/2025-11-25/server/tools',
    '// JSON-RPC 2.0 §5.1 reserves the range',
    '// the requirement is listed in REQUIRE' + 'MENTS.md, and the peers in PEE' + 'RS.md',
  ];
  const problems = citationProblems([{ file: 'sample.ts', text: broken.join('\n') }], present);
  assert.is(problems.filter((line) => line.includes('shorthand')).length, 3);
  assert.ok(problems.some((line) => line.includes('REQUIRE' + 'MENTS.md')));
  assert.ok(problems.some((line) => line.includes('PEE' + 'RS.md')));
  const sound = '// https://modelcontextprotocol.io/specification/2025-11-25/basic (rule 1.5 in spec-tests/RULES.md)';
  assert.equal(citationProblems([{ file: 'sample.ts', text: sound }], present), []);
});

test.run();
