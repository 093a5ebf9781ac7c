// Every fixture in the repository loads, says what it checks (spec and covers lines), and the
// generic ones stay generic: no tool, prompt or resource names of any particular server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { findFixtureFiles } from '../runner/fixture-files.js';
import { parseFixture } from '../runner/fixture-parser.js';
import { isJsonObject } from '../runner/json-types.js';

const files = findFixtureFiles(['spec-tests/fixtures']);

test('there are generic and ours fixtures', () => {
  assert.ok(files.filter((file) => file.name.startsWith('generic/')).length >= 40);
  assert.ok(files.filter((file) => file.name.startsWith('ours/')).length >= 10);
});

test('every fixture parses and names its spec rule and requirement ids', () => {
  for (const file of files) {
    const fixture = parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name);
    assert.ok(fixture.header.spec.length > 0, `${file.name} has no spec: line`);
    assert.ok(fixture.header.covers.length > 0, `${file.name} has no covers: line`);
    assert.ok(fixture.header.prose.length > 0, `${file.name} does not say what it tests`);
    assert.ok(fixture.steps.length > 0, `${file.name} has no steps`);
  }
});

const NAMED_TARGET: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

test('generic fixtures call no named tool, prompt or resource', () => {
  for (const file of files.filter((item) => item.name.startsWith('generic/'))) {
    const fixture = parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name);
    for (const step of fixture.steps) {
      if (step.kind !== 'send-json') continue;
      for (const { value } of step.messages) {
        if (!isJsonObject(value) || typeof value.method !== 'string' || !isJsonObject(value.params)) continue;
        const key = NAMED_TARGET[value.method];
        const target = key === undefined ? undefined : value.params[key];
        assert.ok(target === undefined || String(target).startsWith('mcp-conform'), `${file.name} calls "${String(target)}"`);
      }
    }
  }
});

test('every JSON-RPC example row J1-J15 and probe M1-M5, M8-M11, M13, M17, M18 is covered', () => {
  const covered = new Set(
    files.flatMap((file) => parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name).header.covers),
  );
  const wanted = [
    ...Array.from({ length: 15 }, (_, index) => `J${index + 1}`),
    'M1',
    'M2',
    'M3',
    'M4',
    'M5',
    'M8',
    'M9',
    'M10',
    'M11',
    'M13',
    'M17',
    'M18',
  ];
  assert.equal(
    wanted.filter((id) => !covered.has(id)),
    [],
  );
});

test.run();
