// The JSON data model shared by the parser, the matchers and the reporters.
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compact JSON when it fits on one readable line, indented JSON otherwise. */
export function formatJson(value: JsonValue, maxInlineLength = 100): string {
  const compact = JSON.stringify(value);
  return compact.length <= maxInlineLength ? compact : JSON.stringify(value, null, 2);
}
