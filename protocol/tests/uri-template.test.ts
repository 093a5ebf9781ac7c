// The documented RFC 6570 subset: {var} and a trailing {?a,b}, expansion and matching.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type UriTemplate, type Variables, compileUriTemplate } from '../uri-template.js';

const issue = compileUriTemplate('jira://issue/{key}');
const search = compileUriTemplate('jira://project/{project_key}/issues{?status,assignee,priority}');

test('expands and matches a simple variable', () => {
  assert.is(issue.expand({ key: 'PROJ-101' }), 'jira://issue/PROJ-101');
  assert.equal({ ...issue.match('jira://issue/PROJ-101') }, { key: 'PROJ-101' });
});

test('percent-encodes on expansion and decodes on match', () => {
  assert.is(issue.expand({ key: 'a b/c' }), 'jira://issue/a%20b%2Fc');
  assert.equal({ ...issue.match('jira://issue/a%20b%2Fc') }, { key: 'a b/c' });
});

test('a simple variable matches no slash, no query, no fragment, and not empty', () => {
  for (const uri of ['jira://issue/', 'jira://issue/a/b', 'jira://issue/a?x=1', 'jira://issue/a#f', 'jira://issues/a']) {
    assert.is(issue.match(uri), null, uri);
  }
});

test('malformed percent-encoding does not match', () => {
  assert.is(issue.match('jira://issue/%E0%A4%A'), null);
});

test('query: expands only variables with a value, in template order', () => {
  assert.is(search.expand({ project_key: 'PROJ' }), 'jira://project/PROJ/issues');
  assert.is(
    search.expand({ project_key: 'PROJ', priority: 'P0', status: 'todo' }),
    'jira://project/PROJ/issues?status=todo&priority=P0',
  );
});

test('query: parameters match in any order, each optional', () => {
  assert.equal({ ...search.match('jira://project/PROJ/issues') }, { project_key: 'PROJ' });
  assert.equal(
    { ...search.match('jira://project/PROJ/issues?priority=P0&status=in_progress') },
    { project_key: 'PROJ', priority: 'P0', status: 'in_progress' },
  );
  assert.equal({ ...search.match('jira://project/PROJ/issues?') }, { project_key: 'PROJ' });
});

test('query: an unknown or repeated parameter means no match', () => {
  assert.is(search.match('jira://project/PROJ/issues?colour=red'), null);
  assert.is(search.match('jira://project/PROJ/issues?status=a&status=b'), null);
  assert.is(issue.match('jira://issue/PROJ-1?status=a'), null);
});

test('a key named __proto__ cannot pollute anything', () => {
  const t = compileUriTemplate('x://{__proto__}');
  const vars = t.match('x://polluted');
  assert.is(vars?.['__proto__'], 'polluted');
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('expressions outside the subset are refused at compile time', () => {
  for (const bad of ['x://{+path}', 'x://{#frag}', 'x://{a*}', 'x://{?q}/after', 'x://{}']) {
    assert.throws(() => compileUriTemplate(bad), /URI template/, bad);
  }
});

test('variables lists path then query names', () => {
  assert.equal([...search.variables], ['project_key', 'status', 'assignee', 'priority']);
});

test('several variables: matched up to the next literal, and no catastrophic backtracking', () => {
  const t = compileUriTemplate('x://{a}-{b}.{c}/end');
  assert.equal({ ...t.match('x://one-two.three/end') }, { a: 'one', b: 'two', c: 'three' });
  const began = Date.now();
  assert.is(t.match('x://' + '-'.repeat(5000) + '/'), null);
  assert.ok(Date.now() - began < 100, `took ${Date.now() - began} ms`);
  assert.throws(() => compileUriTemplate('x://{a}{b}'), /cannot be told apart/);
});

/**
 * The same subset written the plain way, as a reference for the hand-written scanner: the
 * template as one regular expression, the query split into its pairs, the expansion joined
 * from an array of pieces.
 */
function referenceTemplate(template: string): Pick<UriTemplate, 'expand' | 'match'> {
  const query = /\{\?([^}]*)\}$/.exec(template);
  const queryNames = query ? (query[1] ?? '').split(',') : [];
  const path = query ? template.slice(0, query.index) : template;
  const pieces = path.split(/(\{[^}]*\})/).filter((piece) => piece !== '');
  const names = pieces.filter((piece) => piece.startsWith('{')).map((piece) => piece.slice(1, -1));
  const pattern = pieces
    .map((piece, i) => {
      if (!piece.startsWith('{')) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const stop = pieces[i + 1]?.[0] ?? '';
      return `([^/?#${stop.replace(/[\\\]^-]/g, '\\$&')}]+)`;
    })
    .join('');
  const regex = new RegExp(`^${pattern}(?:\\?([^#]*))?$`);
  const encode = (value: string): string =>
    encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const decode = (value: string): string | null => {
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  };
  return {
    expand(values) {
      const uri = pieces.map((piece) => (piece.startsWith('{') ? encode(values[piece.slice(1, -1)] ?? '') : piece)).join('');
      const pairs = queryNames.filter((name) => values[name] !== undefined).map((name) => `${name}=${encode(values[name]!)}`);
      return pairs.length > 0 ? `${uri}?${pairs.join('&')}` : uri;
    },
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return null;
      const variables: Variables = Object.create(null) as Variables;
      for (const [i, name] of names.entries()) {
        const value = decode(found[i + 1] ?? '');
        if (value === null) return null;
        variables[name] = value;
      }
      const search = found[names.length + 1];
      if (search === undefined) return variables;
      if (queryNames.length === 0) return null;
      if (search === '') return variables;
      for (const pair of search.split('&')) {
        const equals = pair.indexOf('=');
        const name = equals === -1 ? pair : pair.slice(0, equals);
        const value = decode(equals === -1 ? '' : pair.slice(equals + 1));
        if (!queryNames.includes(name) || Object.hasOwn(variables, name) || value === null) return null;
        variables[name] = value;
      }
      return variables;
    },
  };
}

/** What a call gives: its value (a match as a plain object), or the error it throws. */
function outcome(run: () => string | Variables | null): unknown {
  try {
    const value = run();
    return typeof value === 'object' && value !== null ? { ...value } : value;
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

// Characters that matter to a template or a URI: separators, escapes, stops, and plain letters.
const URI_CHARS = ['a', 'b', 'Z', '1', '-', '.', '_', '~', '/', '?', '#', '&', '=', '%', '2', 'F', 'E', ':', '!', ' ', 'é'];
const uriText = (maxLength: number) => fc.string({ unit: fc.constantFrom(...URI_CHARS), maxLength });
const NAMES = ['a', 'b', 'key', 'q'];
const literal = fc.string({
  unit: fc.constantFrom('x', 'y', '-', '.', '/', ':', '_', '~', '!', '#', '&'),
  minLength: 1,
  maxLength: 3,
});
/** A template: a literal start, then variables with a literal after all but maybe the last, then maybe a query. */
const templates = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...NAMES), literal), { maxLength: 3 }),
    fc.option(fc.constantFrom(...NAMES)),
    fc.option(fc.subarray(NAMES, { minLength: 1 })),
  )
  .map(([pairs, lastName, query]) => {
    const body = pairs.map(([name, after]) => `{${name}}${after}`).join('');
    return `x://${body}${lastName === null ? '' : `{${lastName}}`}${query === null ? '' : `{?${query.join(',')}}`}`;
  });
/** A query string made of the template's names, separators and escapes. */
const queryText = fc.string({ unit: fc.constantFrom('a', 'b', 'key', 'q', 'zz', '=', '&', '%', '2F', '#', '?'), maxLength: 8 });
const values = fc.record(
  {
    a: fc.oneof(uriText(6), fc.string({ unit: 'binary', maxLength: 4 })),
    b: uriText(6),
    key: fc.constantFrom('PROJ-101', 'a b/c', '', '%', 'x?y#z'),
    q: uriText(4),
  },
  { requiredKeys: [] },
);

test('property: expansion and matching agree with the plain reference on random templates and URIs', () => {
  fc.assert(
    fc.property(
      templates,
      values,
      uriText(24),
      fc.nat(30),
      uriText(3),
      queryText,
      (template, given, noise, at, inserted, query) => {
        const ours = compileUriTemplate(template);
        const reference = referenceTemplate(template);
        const expanded = outcome(() => ours.expand(given));
        assert.equal(
          expanded,
          outcome(() => reference.expand(given)),
          `expand ${template}`,
        );
        // URIs the template produces, the same edited or with another query, and noise.
        const uris = [noise, `x://${noise}`];
        if (typeof expanded === 'string') {
          uris.push(expanded, expanded.slice(0, at) + inserted + expanded.slice(at), `${expanded.split('?')[0]}?${query}`);
        }
        for (const uri of uris) {
          assert.equal(
            outcome(() => ours.match(uri)),
            outcome(() => reference.match(uri)),
            `${template} against ${uri}`,
          );
        }
      },
    ),
    { numRuns: 3_000 },
  );
});

test.run();
