// Decides from the server's initialize result whether a fixture applies to this server, e.g.
// `requires: capabilities.prompts` skips prompt fixtures for a server without prompts.
import type { Requirement, RequirementAlternative } from './fixture-types.js';
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { describe } from './matchers.js';

/** The reason to skip, or undefined when every requirement holds. */
export function unmetRequirement(requirements: Requirement[], initializeResult: JsonValue): string | undefined {
  for (const requirement of requirements) {
    if (requirement.alternatives.some((alternative) => holds(alternative, valueAt(initializeResult, alternative.path)))) continue;
    const found = requirement.alternatives.map((alternative) => describe(valueAt(initializeResult, alternative.path)));
    return `requires ${requirement.text}, but the initialize result has ${found.join(' | ')} there`;
  }
  return undefined;
}

/**
 * A capability set to `false` (or null) is not declared: `"listChanged": false` says the server
 * will not send list changes, so `requires: capabilities.tools.listChanged` does not hold and
 * `requires: !capabilities.tools.listChanged` does.
 */
export function isDeclared(value: JsonValue | undefined): boolean {
  return value !== undefined && value !== null && value !== false;
}

function holds(alternative: RequirementAlternative, value: JsonValue | undefined): boolean {
  const condition = alternative.condition;
  if (condition.kind === 'present') return isDeclared(value);
  if (condition.kind === 'absent') return !isDeclared(value);
  return JSON.stringify(value) === JSON.stringify(condition.value);
}

function valueAt(root: JsonValue, path: string[]): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
