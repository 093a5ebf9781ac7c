// What this server serves, and how it says so: the features derived from the definition, the
// `capabilities` object of the initialize and server/discover results, and what a listen
// stream may carry. Capabilities are derived, never declared by hand (rule 2.4: a declared
// capability whose methods are missing breaks hosts).

import type { Feature } from './methods.js';
import type { ListenFilter } from './schemas.js';
import type { ServerDefinition } from './definition.js';
import { TASKS_EXTENSION } from './tasks.js';
import type { VersionRules } from './versions.js';

export function servedFeatures(definition: ServerDefinition): Set<Feature> {
  const features = new Set<Feature>();
  const resources = (definition.resources?.length ?? 0) + (definition.resourceTemplates?.length ?? 0) > 0;
  if (definition.tools?.length) features.add('tools');
  if (definition.tools?.some((tool) => tool.task)) features.add('tasks');
  if (resources) features.add('resources');
  if (resources && definition.subscriptions) features.add('subscriptions');
  if (resources && definition.resourceListChanged) features.add('resourceListChanged');
  if (definition.prompts?.length) features.add('prompts');
  if (definition.logging) features.add('logging');
  const completes =
    definition.prompts?.some((p) => p.arguments.some((a) => a.complete)) ||
    definition.resourceTemplates?.some((t) => t.complete && Object.keys(t.complete).length > 0);
  if (completes) features.add('completions');
  return features;
}

export function capabilitiesFor(features: ReadonlySet<Feature>, rules: VersionRules): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (features.has('tools')) capabilities.tools = {};
  if (features.has('resources')) {
    const resources: Record<string, boolean> = {};
    if (features.has('subscriptions')) resources.subscribe = true;
    if (features.has('resourceListChanged')) resources.listChanged = true;
    capabilities.resources = resources;
  }
  if (features.has('prompts')) capabilities.prompts = {};
  if (features.has('logging')) capabilities.logging = {};
  // 2024-11-05 had completion/complete but no capability flag for it.
  if (features.has('completions') && rules.completionsCapability) capabilities.completions = {};
  // The tasks extension exists in 2026-07-28 only, advertised in server/discover (tasks.ts).
  if (features.has('tasks') && rules.era === 'stateless') capabilities.extensions = { [TASKS_EXTENSION]: {} };
  return capabilities;
}

/**
 * What a listen stream will carry: the requested types we actually send (the acknowledgement
 * "only includes notification types the server actually supports", schema
 * SubscriptionsAcknowledgedNotificationParams). Our tool and prompt lists never change.
 */
export function honouredFilter(requested: ListenFilter, features: ReadonlySet<Feature>): ListenFilter {
  const honoured: ListenFilter = {};
  if (requested.resourcesListChanged && features.has('resourceListChanged')) honoured.resourcesListChanged = true;
  if (requested.resourceSubscriptions && features.has('subscriptions'))
    honoured.resourceSubscriptions = requested.resourceSubscriptions;
  return honoured;
}
