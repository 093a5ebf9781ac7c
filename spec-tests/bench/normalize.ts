// Answers reduced to what the shared surface promises, so two servers can be compared:
// error codes but not error wording, schema property names but not each generator's JSON
// Schema spelling, resource contents parsed and without `read_at` (the time of the read).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, any>;

export function normalize(method: string, response: Obj): Json {
  if (response.error) return { error: { code: response.error.code } };
  const result = response.result as Obj;
  switch (method) {
    case 'initialize':
      return { protocolVersion: result.protocolVersion };
    case 'tools/list':
      return sortBy(result.tools.map(toolShape), 'name');
    case 'resources/list':
      return sortBy(
        result.resources.map((r: Obj) => pick(r, ['uri', 'name', 'title', 'description', 'mimeType', 'annotations'])),
        'uri',
      );
    case 'resources/templates/list':
      return sortBy(
        result.resourceTemplates.map((t: Obj) => pick(t, ['uriTemplate', 'name', 'title', 'description', 'mimeType'])),
        'uriTemplate',
      );
    case 'prompts/list':
      return sortBy(result.prompts.map(promptShape), 'name');
    case 'resources/read':
      return result.contents.map((c: Obj) => ({
        uri: c.uri,
        mimeType: c.mimeType ?? null,
        value: withoutReadAt(parseText(c.text)),
      }));
    case 'tools/call':
      return {
        isError: result.isError === true,
        structuredContent: result.structuredContent ?? null,
        content: result.content.map(block),
      };
    case 'prompts/get':
      return {
        description: result.description ?? null,
        messages: result.messages.map((m: Obj) => ({ role: m.role, content: block(m.content) })),
      };
    case 'completion/complete':
      return { values: result.completion.values };
    default:
      return result as Json;
  }
}

/** Canonical JSON: object keys sorted, so equal values compare equal as strings. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Obj).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function toolShape(t: Obj): Json {
  const input = (t.inputSchema ?? {}) as Obj;
  return {
    name: t.name,
    title: t.title ?? null,
    description: t.description,
    annotations: t.annotations ?? null,
    inputProperties: Object.keys(input.properties ?? {}).sort(),
    required: [...(input.required ?? [])].sort(),
    hasOutputSchema: t.outputSchema !== undefined,
  };
}

function promptShape(p: Obj): Json {
  const args = (p.arguments ?? []).map((a: Obj) => ({ name: a.name, required: a.required === true }));
  return { name: p.name, title: p.title ?? null, description: p.description ?? null, arguments: sortBy(args, 'name') };
}

function block(b: Obj): Json {
  if (b.type === 'text') return { type: 'text', value: withoutReadAt(parseText(b.text)) };
  if (b.type === 'resource')
    return {
      type: 'resource',
      uri: b.resource.uri,
      mimeType: b.resource.mimeType ?? null,
      value: withoutReadAt(parseText(b.resource.text)),
    };
  return b as Json;
}

function parseText(text: unknown): Json {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

function withoutReadAt(value: Json): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const { read_at: _volatile, ...rest } = value;
  return rest;
}

function pick(o: Obj, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

function sortBy(items: Json[], key: string): Json[] {
  return [...items].sort((a, b) => String((a as Obj)[key]).localeCompare(String((b as Obj)[key])));
}
