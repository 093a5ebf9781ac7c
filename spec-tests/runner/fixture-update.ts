// --update: rewrites the `-- server --` sections of a fixture from what a live server sent.
// What the author wrote is kept where it still matches: a matcher that accepts the new value
// stays a matcher, keys an object left out stay left out (unless it is marked <<exact>>),
// and a section whose expectations all still match keeps its text byte for byte.
import type { Fixture, Section } from './fixture-types.js';
import type { Observation } from './fixture-result.js';
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { EXACT_KEY, isMarkerText, matchValue } from './matchers.js';
import { compareMessage } from './pairing.js';
import { jsonSectionBody, serializeFixture } from './fixture-writer.js';

/** The new fixture text, or undefined when nothing changed. */
export function updatedFixtureText(fixture: Fixture, observations: Observation[]): string | undefined {
  let changed = false;
  const sections = fixture.sections.map((section, index) => {
    const step = fixture.steps[index];
    if (step?.kind !== 'expect' || step.optional) return section;
    const rewritten = rewriteSection(
      section,
      step.messages.map((message) => message.value),
      observations.filter((item) => item.sectionIndex === index),
    );
    if (rewritten !== section) changed = true;
    return rewritten;
  });
  return changed ? serializeFixture(fixture.headerText, sections) : undefined;
}

function rewriteSection(section: Section, expected: JsonValue[], observations: Observation[]): Section {
  const values: JsonValue[] = [];
  for (const value of expected) {
    const observation = observations.find((item) => item.expected === value);
    if (observation?.actual !== undefined) values.push(mergeExpectation(value, observation.actual));
  }
  values.push(
    ...observations
      .filter((item) => item.expected === undefined && item.actual !== undefined)
      .map((item) => item.actual as JsonValue),
  );
  const unchanged = values.length === expected.length && values.every((value, index) => value === expected[index]);
  return unchanged ? section : { ...section, body: jsonSectionBody(values) };
}

/** Returns `expected` itself when it still matches, so unchanged sections can be detected. */
export function mergeExpectation(expected: JsonValue, actual: JsonValue, topLevel = true): JsonValue {
  // Only a whole batch is compared without order; arrays inside messages keep theirs.
  const stillMatches = (topLevel ? compareMessage(expected, actual) : matchValue(expected, actual)) === undefined;
  if (stillMatches) return expected;
  if (typeof expected === 'string' && isMarkerText(expected)) return actual;
  if (isJsonObject(expected) && isJsonObject(actual)) return mergeObject(expected, actual);
  if (!topLevel && Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    return expected.map((item, index) => mergeExpectation(item, actual[index] ?? null, false));
  }
  return actual;
}

function mergeObject(expected: Record<string, JsonValue>, actual: Record<string, JsonValue>): JsonValue {
  const exact = expected[EXACT_KEY] === true;
  const merged: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(expected)) {
    if (key === EXACT_KEY) merged[key] = value;
    else if (key in actual) merged[key] = mergeExpectation(value, actual[key] ?? null, false);
    else if (value === '<<absent>>') merged[key] = value;
  }
  if (exact) for (const [key, value] of Object.entries(actual)) if (!(key in merged)) merged[key] = value;
  return merged;
}
