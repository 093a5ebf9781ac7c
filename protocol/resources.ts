// Resources: nouns the host decides to read, without side effects (https://modelcontextprotocol.io/specification/2025-11-25/server/resources).
//
// Three kinds of definitions:
// - fixed resources with a known URI (jira://projects);
// - templates (RFC 6570, see uri-template.ts) that resolve any matching URI on read, may
//   list the concrete resources they currently produce, and may complete their variables;
// - subscriptions: the session remembers which URIs a client subscribed to, filed under the
//   canonical URI of the resource each names (`canonicalUri`, see subscriptions.ts), and the
//   application says when a resource's content changed (`resourceUpdated`).
//
// Not found is -32002 with the URI in `data` up to 2025-11-25 (the code comes from the
// version table), never an empty `contents` array (rule 5.3: an empty array reads as "exists but empty").

import { type Annotations, type ResourceInfo, shapeInfo } from './content.js';
import type { RequestContext } from './context.js';
import { RpcError, excerpt } from './errors.js';
import { type PagedSource, arraySource, concatSources } from './pagination.js';
import type { PreEncoded } from './pre-encoded.js';
import { type UriTemplate, type Variables, compileUriTemplate } from './uri-template.js';
import type { VersionRules } from './versions.js';

/**
 * `text` may be a `PreEncoded.ofString(text)`: a large text served on every read is then
 * escaped once, not once per read.
 */
export type ResourceContents =
  { uri: string; mimeType?: string; text: string | PreEncoded<string> } | { uri: string; mimeType?: string; blob: string };

export interface ResourceDefinition extends ResourceInfo {
  read(context: RequestContext): ResourceContents[] | Promise<ResourceContents[]>;
}

/** Suggestions, best first; `total` when the completer knows of more than it returns. */
export interface Suggestions {
  values: readonly string[];
  total?: number;
}

/** Suggests values for a variable or argument from what was typed so far and what is already chosen. */
export type Completer = (value: string, chosen: Readonly<Record<string, string>>) => Suggestions | Promise<Suggestions>;

export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  /** Only if every resource the template produces has this type (schema `ResourceTemplate`). */
  mimeType?: string;
  annotations?: Annotations;
  /** Contents of a matching URI, or null when nothing exists there (-> not found). */
  read(
    variables: Variables,
    uri: string,
    context: RequestContext,
  ): ResourceContents[] | null | Promise<ResourceContents[] | null>;
  /** The concrete resources this template produces now, for resources/list. */
  list?: PagedSource<ResourceInfo>;
  complete?: Record<string, Completer>;
  /**
   * The variables as this resource spells them canonically (e.g. a key in capitals): two URIs
   * whose variables come out alike must read alike. Without it, only the percent-encoding and
   * the order of query parameters are made canonical.
   */
  canonical?(variables: Variables): Variables;
}

export interface ResourceRegistry {
  /** Fixed resources first, then each template's listed ones, in a stable order. */
  readonly listing: PagedSource<ResourceInfo>;
  describeResource(info: ResourceInfo, rules: VersionRules): ResourceInfo;
  describeTemplates(rules: VersionRules): Record<string, unknown>[];
  read(uri: string, context: RequestContext): ResourceContents[] | Promise<ResourceContents[]>;
  /** The one spelling of the resource a URI names, under which subscriptions to it are kept. */
  canonicalUri(uri: string): string;
  hasTemplate(uriTemplate: string): boolean;
  completer(uriTemplate: string, variable: string): Completer | undefined;
}

interface CompiledTemplate {
  definition: ResourceTemplateDefinition;
  template: UriTemplate;
}

export function createResourceRegistry(
  resources: readonly ResourceDefinition[],
  templates: readonly ResourceTemplateDefinition[],
): ResourceRegistry {
  const byUri = new Map(resources.map((resource) => [resource.uri, resource]));
  const compiled: CompiledTemplate[] = templates.map((definition) => ({
    definition,
    template: compileUriTemplate(definition.uriTemplate),
  }));
  const listing = concatSources<ResourceInfo>([
    arraySource(resources.map(({ read: _read, ...info }) => info)),
    ...templates.flatMap((t) => (t.list ? [t.list] : [])),
  ]);

  function findTemplate(uri: string): (CompiledTemplate & { variables: Variables }) | undefined {
    for (const { definition, template } of compiled) {
      const variables = template.match(uri);
      if (variables) return { definition, template, variables };
    }
    return undefined;
  }

  /**
   * A URI a template matches is spelled again from its decoded (and canonicalised) variables.
   * That spelling must lead back to the same template: `jira://sprint/%63urrent` decodes to the
   * fixed `jira://sprint/current`, a different resource, so such a URI keeps its own spelling.
   */
  function canonicalUri(uri: string): string {
    const found = byUri.has(uri) ? undefined : findTemplate(uri);
    if (!found) return uri;
    const canonical = found.template.expand(found.definition.canonical?.(found.variables) ?? found.variables);
    return !byUri.has(canonical) && findTemplate(canonical)?.definition === found.definition ? canonical : uri;
  }

  // Synchronous when the resource's read is: the answer then exists before the next line is
  // read, so the limit on output waiting for the client holds between two reads.
  function read(uri: string, context: RequestContext): ResourceContents[] | Promise<ResourceContents[]> {
    const fixed = byUri.get(uri);
    const found = fixed ? undefined : findTemplate(uri);
    const contents = fixed ? fixed.read(context) : found ? found.definition.read(found.variables, uri, context) : null;
    const present = (value: ResourceContents[] | null): ResourceContents[] => {
      if (!value || value.length === 0) {
        throw new RpcError(context.rules.resourceNotFoundCode, `Resource not found: ${excerpt(uri)}`, { uri: excerpt(uri) });
      }
      return value;
    };
    return contents instanceof Promise ? contents.then(present) : present(contents);
  }

  return {
    listing,
    describeResource: (info, rules) => shapeInfo(info, rules),
    describeTemplates: (rules) =>
      templates.map(({ read: _read, list: _list, complete: _complete, canonical: _canonical, ...info }) =>
        shapeInfo(info, rules),
      ),
    read,
    canonicalUri,
    hasTemplate: (uriTemplate) => templates.some((t) => t.uriTemplate === uriTemplate),
    completer: (uriTemplate, variable) => templates.find((t) => t.uriTemplate === uriTemplate)?.complete?.[variable],
  };
}
