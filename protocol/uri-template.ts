// URI templates (RFC 6570) for resource templates (https://modelcontextprotocol.io/specification/2025-11-25/server/resources "Resource Templates").
//
// RFC 6570 defines only expansion; matching a concrete URI back to a template is left open
// (rule A-20; python-sdk PR #2356). So we support a small, precise subset and write
// its rules down:
//
//   {name}       Level 1 simple expansion. Expands to the value, percent-encoded except the
//                RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~). Matches one or more
//                characters other than "/", "?" and "#", percent-decoded.
//   {?a,b}       Level 3 form-style query, only at the very end of the template. Expands to
//                "?a=1&b=2" for the variables that have a value, in template order, or to
//                nothing. Matches an optional query string whose parameters are the template's
//                names, in any order, each at most once, each optional (the SDK required all of
//                them, in order: TS #1079). A parameter the template does not name, a repeated
//                one, or a fragment ("#...") means the URI does not match.
//
// Anything else in braces is rejected when the template is compiled, not silently mis-matched.

export type Variables = Record<string, string>;

export interface UriTemplate {
  readonly template: string;
  /** Variable names, path variables first, then query variables. */
  readonly variables: readonly string[];
  expand(values: Partial<Variables>): string;
  /** The variables of a URI this template produces, or null if it does not match. */
  match(uri: string): Variables | null;
}

/**
 * A piece of the template before its query: literal text, or a variable. A variable's value
 * ends at the first "/", "?", "#" or `stop` (the first character of the literal after it).
 */
type Part = { readonly literal: string } | { readonly variable: string; readonly stop: string };

const EXPRESSION = /\{([^}]*)\}/g;
const NAME = /^[A-Za-z0-9_]+$/;

// Expansion and matching run on every resources/read and every link a result carries, so they
// build their strings and read the URI by hand, character by character: no regular
// expression, and no arrays of pieces to join or split (the parts are made once, here).
export function compileUriTemplate(template: string): UriTemplate {
  const pieces: ({ literal: string } | { variable: string })[] = [];
  let queryNames: string[] = [];
  let last = 0;
  for (const found of template.matchAll(EXPRESSION)) {
    const body = found[1] ?? '';
    const index = found.index ?? 0;
    if (index > last) pieces.push({ literal: template.slice(last, index) });
    last = index + found[0].length;
    if (body.startsWith('?')) {
      if (last !== template.length) throw new Error(`URI template ${template}: {?...} must come last`);
      queryNames = body.slice(1).split(',');
      queryNames.forEach((name) => checkName(template, name));
    } else {
      checkName(template, body);
      pieces.push({ variable: body });
    }
  }
  if (last < template.length) pieces.push({ literal: template.slice(last) });
  const parts = pieces.map((piece, index): Part =>
    'literal' in piece ? piece : variablePart(piece.variable, pieces[index + 1]),
  );
  const pathVariables = parts.flatMap((part) => ('variable' in part ? [part.variable] : []));

  return {
    template,
    variables: [...pathVariables, ...queryNames],
    expand(values) {
      let uri = '';
      for (const part of parts) uri += 'literal' in part ? part.literal : encode(values[part.variable] ?? '');
      let separator = '?';
      for (const name of queryNames) {
        const value = values[name];
        if (value === undefined) continue;
        uri += `${separator}${name}=${encode(value)}`;
        separator = '&';
      }
      return uri;
    },
    match(uri) {
      const variables: Variables = Object.create(null) as Variables;
      let at = 0;
      for (const part of parts) {
        if ('literal' in part) {
          if (!uri.startsWith(part.literal, at)) return null;
          at += part.literal.length;
          continue;
        }
        const end = valueEnd(uri, at, part.stop);
        if (end === at) return null; // one character at least
        const value = decode(uri.slice(at, end));
        if (value === null) return null;
        variables[part.variable] = value;
        at = end;
      }
      if (at === uri.length) return variables;
      if (uri[at] !== '?' || uri.includes('#', at)) return null;
      return matchQuery(uri, at + 1, queryNames, variables);
    },
  };
}

/**
 * A variable matches up to the first character of the literal after it. Letting it match that
 * character too would make "x://{a}-{b}-{c}" ambiguous (a regular expression for it
 * backtracks in cubic time on a hostile URI); two variables in a row cannot be split at all.
 */
function variablePart(variable: string, next: { literal: string } | { variable: string } | undefined): Part {
  if (next !== undefined && 'variable' in next)
    throw new Error(`URI template: {${variable}}{${next.variable}} cannot be told apart`);
  return { variable, stop: next === undefined ? '' : (next.literal[0] ?? '') };
}

/** Where a variable's value that starts at `from` ends: at "/", "?", "#", `stop`, or the end. */
function valueEnd(uri: string, from: number, stop: string): number {
  let at = from;
  while (at < uri.length) {
    const c = uri[at];
    if (c === '/' || c === '?' || c === '#' || c === stop) break;
    at++;
  }
  return at;
}

/** The parameters of the query that starts at `from` (after the "?"), added to `into`. */
function matchQuery(uri: string, from: number, names: readonly string[], into: Variables): Variables | null {
  if (names.length === 0) return null;
  if (from === uri.length) return into;
  let start = from;
  while (start <= uri.length) {
    const ampersand = uri.indexOf('&', start);
    const end = ampersand === -1 ? uri.length : ampersand;
    const equals = uri.indexOf('=', start);
    const split = equals === -1 || equals > end ? end : equals;
    const name = uri.slice(start, split);
    const value = decode(split === end ? '' : uri.slice(split + 1, end));
    if (!names.includes(name) || Object.hasOwn(into, name) || value === null) return null;
    into[name] = value;
    start = end + 1;
  }
  return into;
}

function checkName(template: string, name: string): void {
  if (!NAME.test(name)) throw new Error(`URI template ${template}: unsupported expression {${name}}`);
}

/** RFC 3986 unreserved characters stay; everything else is percent-encoded as UTF-8. */
function encode(value: string): string {
  if (allUnreserved(value)) return value; // most values (keys, ids) are
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** A-Z a-z 0-9 - . _ ~ only. */
function allUnreserved(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const unreserved =
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2d ||
      c === 0x2e ||
      c === 0x5f ||
      c === 0x7e;
    if (!unreserved) return false;
  }
  return true;
}

function decode(value: string): string | null {
  if (!value.includes('%')) return value; // nothing encoded: decoding would give it back unchanged
  try {
    return decodeURIComponent(value);
  } catch {
    return null; // malformed percent-encoding: not a URI we produce
  }
}
