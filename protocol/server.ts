// The server: what every connection shares. One server serves many connections (one stdio
// process has one; a Streamable HTTP endpoint has one per session, and one per stateless
// request): the tool, resource and prompt registries, the advertised capabilities, and the
// subscriptions of all connections, so that the application says "this resource changed"
// once and each subscribed connection hears it. Each connection is a light Session
// (session.ts) with its own lifecycle, requests in flight and subscriptions.

import { createTurns } from './turns.js';
import { capabilitiesFor, servedFeatures } from './capabilities.js';
import type { ServerDefinition, SharedState } from './definition.js';
import type { LogLevel } from './schemas.js';
import { createRounds } from './mrtr.js';
import { createPromptRegistry } from './prompts.js';
import { createResourceRegistry } from './resources.js';
import { type Session, type SessionLimits, createSession } from './session.js';
import { DEFAULT_SUBSCRIPTION_LIMITS } from './subscriptions.js';
import { DEFAULT_TASK_LIMITS, createTaskStore } from './tasks.js';
import { createToolRegistry } from './tools.js';
import type { ConnectionIo } from './transport.js';
import { STATELESS_VERSIONS, type VersionRules, rulesFor } from './versions.js';

export interface Server {
  /** A new connection from a transport. */
  connect(io: ConnectionIo, limits?: SessionLimits): Session;
  /**
   * What a URI returns has changed: every connection subscribed to it is told, each with the
   * spelling it used; with `viewer`, only the connections of that reader (definition.perViewer).
   */
  resourceUpdated(uri: string, viewer?: string): void;
  resourceListChanged(): void;
  /** A log message not tied to a request, for every connection whose log level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** The arguments a tool mirrors into `Mcp-Param-*` headers (tools.ts), for the HTTP transport to check. */
  paramHeaders(toolName: string): Readonly<Record<string, string>> | undefined;
  /** Connections open now. */
  readonly connections: number;
  /** Subscriptions held now, on all connections (each spelling, on each stream). */
  readonly subscriptions: number;
}

export function createServer(definition: ServerDefinition, report: (detail: string) => void = () => {}): Server {
  const features = servedFeatures(definition);
  const sessions = new Set<Session>();
  const subscribers = new Map<string, number>(); // canonical URI (and reader, per viewer) -> connections holding it
  /** Where a resource's subscribers are counted: per reader when what it returns depends on who reads it. */
  const perViewer = (key: string, viewer: string): { slot: string; viewer?: string } =>
    definition.perViewer?.(key) === true ? { slot: `${key}\n${viewer}`, viewer } : { slot: key };

  // One sealer for every request that can ask, so a state sealed for one opens for no other.
  const rounds = createRounds(definition.requestStateKey);
  const tasks = createTaskStore({ ...DEFAULT_TASK_LIMITS, ...definition.taskLimits }, report);
  const shared: SharedState = {
    definition,
    features,
    tasks,
    tools: createToolRegistry(definition.tools ?? [], report, rounds, tasks, definition.toolsFor),
    resources: createResourceRegistry(definition.resources ?? [], definition.resourceTemplates ?? []),
    prompts: createPromptRegistry(definition.prompts ?? [], rounds),
    pageSize: definition.pageSize ?? 100,
    turns: createTurns(),
    subscriptionLimits: { ...DEFAULT_SUBSCRIPTION_LIMITS, ...definition.subscriptionLimits },
    subscriptionHooks: {
      added(key, reader) {
        const { slot, viewer } = perViewer(key, reader);
        const count = subscribers.get(slot) ?? 0;
        if (count === 0) definition.onSubscribe?.(key, viewer); // first, so a hook that throws leaves nothing counted
        subscribers.set(slot, count + 1);
      },
      removed(key, reader) {
        const { slot, viewer } = perViewer(key, reader);
        const count = (subscribers.get(slot) ?? 1) - 1;
        if (count > 0) return void subscribers.set(slot, count);
        subscribers.delete(slot);
        definition.onUnsubscribe?.(key, viewer);
      },
      watched: (key, reader) => subscribers.has(perViewer(key, reader).slot),
    },
    initializeResult(version) {
      const rules = rulesFor(version);
      const result: Record<string, unknown> = {
        protocolVersion: version,
        capabilities: capabilitiesFor(features, rules),
        serverInfo: rules.titles ? definition.info : { name: definition.info.name, version: definition.info.version },
      };
      if (definition.instructions) result.instructions = definition.instructions;
      return result;
    },
    discoverResult() {
      const rules: VersionRules = rulesFor(STATELESS_VERSIONS[0]);
      const result: Record<string, unknown> = {
        supportedVersions: [...STATELESS_VERSIONS],
        capabilities: capabilitiesFor(features, rules),
      };
      if (definition.instructions) result.instructions = definition.instructions;
      return result;
    },
  };

  return {
    connect(io, limits) {
      const session = createSession(shared, io, limits ?? {}, () => sessions.delete(session));
      sessions.add(session);
      return session;
    },
    paramHeaders: (toolName) => shared.tools.paramHeaders(toolName),
    resourceUpdated(uri, viewer) {
      for (const session of sessions) if (viewer === undefined || session.viewer === viewer) session.resourceUpdated(uri);
    },
    resourceListChanged() {
      for (const session of sessions) session.resourceListChanged();
    },
    log(level, data, logger) {
      for (const session of sessions) session.log(level, data, logger);
    },
    get connections() {
      return sessions.size;
    },
    get subscriptions() {
      let count = 0;
      for (const session of sessions) count += session.subscriptions;
      return count;
    },
  };
}
