// The documented RFC 6570 subset: {var} and a trailing {?a,b}, expansion and matching.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileUriTemplate } from '../uri-template.js';

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

test.run();
