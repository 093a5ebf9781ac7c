// Resources and prompts for the SDK peers. Their definitions (URIs, metadata, contents,
// completions, prompt conversations) come straight from lib/tracker, so all servers serve
// the same things; only the registration and the wire handling are the SDK's. The two SDK
// versions register these alike; what differs (the ResourceTemplate and completable they
// export, a prompt's arguments as a zod shape in v1 and a z.object in v2) comes in an SdkKit.

import { z } from 'zod';
import type { ToolContext } from '../../protocol/asking.js';
import { PreEncoded } from '../../protocol/pre-encoded.js';
import type { ResourceInfo } from '../../protocol/content.js';
import type { Completer, ResourceContents, ResourceTemplateDefinition } from '../../protocol/resources.js';
import { compileUriTemplate } from '../../protocol/uri-template.js';
import type { TrackerStore } from '../../lib/store/index.js';
import { trackerPrompts } from '../../lib/tracker/prompts.js';
import { trackerResources } from '../../lib/tracker/resources.js';

/** The tracker's reads and prompts never look at the request context; the SDK has none of ours to give. */
const NO_CONTEXT = {} as ToolContext;

/** The parts of one SDK version this file uses; `server` is that version's McpServer. */
export interface SdkKit {
  server: { registerResource(...args: any[]): unknown; registerPrompt(...args: any[]): unknown };
  ResourceTemplate: new (uriTemplate: string, callbacks: { list: any; complete?: any }) => unknown;
  completable(schema: z.ZodTypeAny, complete: any): z.ZodTypeAny;
  /** A prompt's arguments as this SDK version takes them. */
  promptArguments(shape: Record<string, z.ZodTypeAny>): unknown;
}

export function registerResources({ server, ResourceTemplate }: SdkKit, store: TrackerStore): void {
  const { resources, templates } = trackerResources(store);
  for (const { read, uri, name, ...metadata } of resources) {
    server.registerResource(name, uri, metadata, async () => ({ contents: (await read(NO_CONTEXT)).map(plainText) }));
  }
  for (const template of templates) registerTemplate(server, ResourceTemplate, template);
}

function registerTemplate(
  server: SdkKit['server'],
  ResourceTemplate: SdkKit['ResourceTemplate'],
  definition: ResourceTemplateDefinition,
): void {
  const { uriTemplate, name, read, list, complete, canonical: _ours, ...metadata } = definition;
  const source = list;
  const template = new ResourceTemplate(uriTemplate, {
    // The SDK lists everything at once: gather our pages of at most 100.
    list: source ? async () => ({ resources: allOf(source).map(toSdkResource) }) : undefined,
    complete: Object.fromEntries(
      Object.entries(complete ?? {}).map(([variable, completer]) => [variable, sdkCompleter(completer)]),
    ),
  });
  matchAsWeDo(template as { uriTemplate: { match(uri: string): unknown } }, uriTemplate);
  server.registerResource(name, template, metadata, async (url: URL, variables: Record<string, string | string[]>) => {
    const uri = url.href;
    const flat = Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
    const contents = await read(flat, uri, NO_CONTEXT);
    if (contents === null) throw new Error(`Resource ${uri} not found`);
    return { contents: contents.map(plainText) };
  });
}

/**
 * The SDK's matcher wants every query variable present (jira://ready, without ?project=, would
 * be "not found"); ours makes them all optional. Where the SDK's finds nothing, ours is asked.
 */
function matchAsWeDo(template: { uriTemplate: { match(uri: string): unknown } }, uriTemplate: string): void {
  const sdk = template.uriTemplate;
  const sdkMatch = sdk.match.bind(sdk);
  const ours = compileUriTemplate(uriTemplate);
  sdk.match = (uri: string) => sdkMatch(uri) ?? ours.match(uri);
}

/** Our issue texts come pre-encoded for our encoder; the SDK gets the plain string. */
function plainText(contents: ResourceContents): { uri: string; mimeType?: string; text: string } | { uri: string; blob: string } {
  if (!('text' in contents)) return contents;
  return { ...contents, text: contents.text instanceof PreEncoded ? (JSON.parse(contents.text.json) as string) : contents.text };
}

function allOf(source: { count(): number; slice(offset: number, limit: number): ResourceInfo[] }): ResourceInfo[] {
  const items: ResourceInfo[] = [];
  for (let offset = 0, total = source.count(); offset < total; offset += 100) items.push(...source.slice(offset, 100));
  return items;
}

const toSdkResource = (info: ResourceInfo) => ({ ...info, annotations: info.annotations ? { ...info.annotations } : undefined });

function sdkCompleter(completer: Completer) {
  return async (value: string | undefined, context?: { arguments?: Record<string, string> }) => [
    ...(await completer(value ?? '', context?.arguments ?? {})).values,
  ];
}

export function registerPrompts({ server, completable, promptArguments }: SdkKit, store: TrackerStore): void {
  for (const prompt of trackerPrompts(store)) {
    const argsSchema: Record<string, z.ZodTypeAny> = {};
    for (const argument of prompt.arguments) {
      const base = argument.required ? z.string() : z.string().optional();
      const described = argument.description ? base.describe(argument.description) : base;
      argsSchema[argument.name] = argument.complete ? completable(described, sdkCompleter(argument.complete)) : described;
    }
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: promptArguments(argsSchema) },
      async (args: Record<string, unknown>) => {
        const given = Object.fromEntries(
          Object.entries(args).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
        const result = await prompt.get(given, NO_CONTEXT);
        return { description: result.description, messages: result.messages };
      },
    );
  }
}
