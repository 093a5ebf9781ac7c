// `mcp-conform record --redact FIELD`: the values under a key named FIELD (tokens, personal data)
// must not reach the fixture file. They are replaced where they stand, and hunted down where a
// message quotes them inside another string (a tool result that says who it notified).
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';

/** What a client line sends in place of a redacted value: a string, so the line stays valid JSON. */
export const REDACTED = '<<redacted>>';
/**
 * Redacted values shorter than this are replaced under their own key only: searching every other
 * string for a value like "1" or "ok" would mangle the whole transcript.
 */
export const MIN_QUOTED_REDACTION_LENGTH = 4;

/** The strings under the redacted keys, anywhere in these messages, longest first. */
export function redactedStrings(messages: readonly JsonValue[], keys: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const visit = (value: JsonValue, redacted: boolean): void => {
    if (typeof value === 'string' && redacted && value.length >= MIN_QUOTED_REDACTION_LENGTH) found.add(value);
    if (Array.isArray(value)) value.forEach((item) => visit(item, redacted));
    if (isJsonObject(value)) Object.entries(value).forEach(([key, item]) => visit(item, redacted || keys.has(key)));
  };
  messages.forEach((message) => visit(message, false));
  return [...found].sort((a, b) => b.length - a.length);
}

/** Text with each redacted value in it spelled `<<redacted>>`. */
export function scrubText(text: string, values: readonly string[]): string {
  return values.reduce((result, value) => result.replaceAll(value, REDACTED), text);
}

/** Bytes (a raw line) with each redacted value in them spelled `<<redacted>>`. */
export function scrubBytes(bytes: Buffer, values: readonly string[]): Buffer {
  // latin1 maps bytes to characters one to one, so a value's UTF-8 bytes are found wherever they are.
  const asBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const scrubbed = values.reduce((result, value) => result.replaceAll(asBytes(value), REDACTED), bytes.toString('latin1'));
  return Buffer.from(scrubbed, 'latin1');
}

// Matchers compile with the `u` flag, which allows escaping syntax characters only.
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
