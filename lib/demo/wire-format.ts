// One wire message, made readable for `demo --tour`: short messages stay on one line, long ones
// are indented, and what would fill the screen is shortened where it is long (a string, a
// list, a deep object) with a note saying how much was left out. Only the display changes;
// the tour's test checks that each message shown is the one the server sent.

export interface Shortening {
  /** Characters kept of a long string. */
  stringChars: number;
  /** Items kept of a long array. */
  arrayItems: number;
  /** Nesting shown; deeper objects and arrays become a placeholder. */
  depth: number;
  /** Lines kept of an indented message. */
  lines: number;
  /** Widest line, where a message can be broken: a part that fits stays on one line. */
  width: number;
}

export const TOUR_SHORTENING: Shortening = { stringChars: 72, arrayItems: 3, depth: 6, lines: 30, width: 96 };

/** A JSON value with long strings, long arrays and deep nesting replaced by what they hold. */
export function shorten(value: unknown, limits: Shortening, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length <= limits.stringChars
      ? value
      : `${value.slice(0, limits.stringChars)}…(+${value.length - limits.stringChars} chars)`;
  }
  if (typeof value !== 'object' || value === null) return value;
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  if (depth >= limits.depth && size > 0) {
    return Array.isArray(value) ? `[… ${size} ${size === 1 ? 'item' : 'items'}]` : `{… ${size} ${size === 1 ? 'key' : 'keys'}}`;
  }
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.arrayItems).map((item) => shorten(item, limits, depth + 1));
    return value.length > limits.arrayItems ? [...kept, `… ${value.length - limits.arrayItems} more`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item, limits, depth + 1)]));
}

/**
 * A value on one line if it fits in `width` from `indent`, else one line per member, each laid
 * out the same way: small parts of a big message stay compact.
 */
function layout(value: unknown, indent: number, width: number): string[] {
  const flat = JSON.stringify(value);
  if (indent + flat.length <= width || typeof value !== 'object' || value === null) return [flat];
  const members: [string, unknown][] = Array.isArray(value)
    ? value.map((item) => ['', item])
    : Object.entries(value).map(([key, item]) => [`${JSON.stringify(key)}: `, item]);
  const lines = [Array.isArray(value) ? '[' : '{'];
  members.forEach(([prefix, item], index) => {
    const [first = '', ...rest] = layout(item, indent + 2 + prefix.length, width);
    const inner = [`  ${prefix}${first}`, ...rest.map((line) => `  ${line}`)];
    if (index < members.length - 1) inner[inner.length - 1] += ',';
    lines.push(...inner);
  });
  lines.push(Array.isArray(value) ? ']' : '}');
  return lines;
}

/** The lines that show one message: the raw line itself when it is not JSON (a parse error's cause). */
export function formatMessage(line: string, limits: Shortening = TOUR_SHORTENING): string[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [line.length <= limits.width ? line : `${line.slice(0, limits.width)}…(+${line.length - limits.width} chars)`];
  }
  const lines = layout(shorten(value, limits), 0, limits.width);
  return lines.length <= limits.lines
    ? lines
    : [...lines.slice(0, limits.lines), `… (${lines.length - limits.lines} more lines)`];
}
