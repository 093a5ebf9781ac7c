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

type Part = { literal: string } | { variable: string };

const EXPRESSION = /\{([^}]*)\}/g;
const NAME = /^[A-Za-z0-9_]+$/;

export function compileUriTemplate(template: string): UriTemplate {
  const parts: Part[] = [];
  let queryNames: string[] = [];
  let last = 0;
  for (const found of template.matchAll(EXPRESSION)) {
    const body = found[1] ?? '';
    const index = found.index ?? 0;
    if (index > last) parts.push({ literal: template.slice(last, index) });
    last = index + found[0].length;
    if (body.startsWith('?')) {
      if (last !== template.length) throw new Error(`URI template ${template}: {?...} must come last`);
      queryNames = body.slice(1).split(',');
      queryNames.forEach((name) => checkName(template, name));
    } else {
      checkName(template, body);
      parts.push({ variable: body });
    }
  }
  if (last < template.length) parts.push({ literal: template.slice(last) });

  const pathVariables = parts.flatMap((part) => ('variable' in part ? [part.variable] : []));
  const pathPattern = new RegExp('^' + parts.map(patternOf).join('') + '(?:\\?([^#]*))?$');

  return {
    template,
    variables: [...pathVariables, ...queryNames],
    expand(values) {
      const path = parts.map((part) => ('literal' in part ? part.literal : encode(values[part.variable] ?? ''))).join('');
      const query = queryNames.flatMap((name) => {
        const value = values[name];
        return value === undefined ? [] : [`${name}=${encode(value)}`];
      });
      return query.length ? `${path}?${query.join('&')}` : path;
    },
    match(uri) {
      const found = pathPattern.exec(uri);
      if (!found) return null;
      const variables: Variables = Object.create(null) as Variables;
      for (const [i, name] of pathVariables.entries()) {
        const value = decode(found[i + 1] ?? '');
        if (value === null) return null;
        variables[name] = value;
      }
      const query = found[pathVariables.length + 1];
      if (query === undefined) return variables;
      return matchQuery(query, queryNames, variables);
    },
  };
}

function matchQuery(query: string, names: readonly string[], into: Variables): Variables | null {
  if (names.length === 0) return null;
  if (query === '') return into;
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    const value = decode(equals === -1 ? '' : pair.slice(equals + 1));
    if (!names.includes(name) || Object.hasOwn(into, name) || value === null) return null;
    into[name] = value;
  }
  return into;
}

/**
 * A variable matches up to the first character of the literal after it. Letting it match that
 * character too would make "x://{a}-{b}-{c}" backtrack in cubic time on a hostile URI.
 */
function patternOf(part: Part, index: number, parts: readonly Part[]): string {
  if ('literal' in part) return escapeRegExp(part.literal);
  const next = parts[index + 1];
  if (next && 'variable' in next) throw new Error(`URI template: {${part.variable}}{${next.variable}} cannot be told apart`);
  const stop = next && 'literal' in next ? (next.literal[0] ?? '') : '';
  // Inside a character class only \ ] ^ - are special.
  return `([^/?#${stop.replace(/[\\\]^-]/g, '\\$&')}]+)`;
}

function checkName(template: string, name: string): void {
  if (!NAME.test(name)) throw new Error(`URI template ${template}: unsupported expression {${name}}`);
}

/** RFC 3986 unreserved characters stay; everything else is percent-encoded as UTF-8. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null; // malformed percent-encoding: not a URI we produce
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
