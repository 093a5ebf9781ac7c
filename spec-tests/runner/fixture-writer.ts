// Writes fixture text back out (for --update and record) in the same layout it is read in.
import type { Section } from './fixture-types.js';
import type { JsonValue } from './json-types.js';
import { formatJson } from './json-types.js';

export function serializeFixture(headerText: string, sections: Section[]): string {
  return headerText + sections.map((section) => `-- ${section.name} --\n${section.body}`).join('');
}

/** A section body holding JSON values, one compact line each unless a value is long. */
export function jsonSectionBody(values: JsonValue[]): string {
  return `${values.map((value) => formatJson(value)).join('\n')}\n`;
}
