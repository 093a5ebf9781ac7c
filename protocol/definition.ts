// What a server is made of: the application's definition (its tools, resources, prompts and
// the features it offers), and the state every connection shares, built from it once by
// createServer (server.ts) and lent to each session (session.ts).

import type { AuthInfo } from './context.js';
import type { Feature } from './methods.js';
import type { PromptDefinition, PromptRegistry } from './prompts.js';
import type { ResourceDefinition, ResourceRegistry, ResourceTemplateDefinition } from './resources.js';
import type { SubscriptionHooks, SubscriptionLimits } from './subscriptions.js';
import type { TaskLimits, TaskStore } from './tasks.js';
import type { Turns } from './turns.js';
import type { ToolDefinition, ToolRegistry } from './tools.js';
import type { HandshakeVersion } from './versions.js';

export interface ServerDefinition {
  /** `serverInfo` in the initialize result. */
  info: { name: string; version: string; title?: string };
  instructions?: string;
  tools?: ToolDefinition[];
  resources?: ResourceDefinition[];
  resourceTemplates?: ResourceTemplateDefinition[];
  prompts?: PromptDefinition[];
  /** We will send notifications/resources/updated for subscribed URIs. */
  subscriptions?: boolean;
  /** Bounds on what clients may subscribe to (DEFAULT_SUBSCRIPTION_LIMITS where not given). */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /**
   * A resource gained its first subscriber on any connection (resources/subscribe or
   * subscriptions/listen), e.g. to note what it holds now. `uri` is its canonical URI, whatever
   * spelling the client used.
   */
  onSubscribe?(uri: string, viewer?: string): void;
  /** Its last subscriber left (unsubscribed, its stream ended, its connection closed): forget what was noted. */
  onUnsubscribe?(uri: string, viewer?: string): void;
  /**
   * Whether what a resource returns depends on who reads it ("my current sprint"). Its
   * subscriptions are then counted, noted (onSubscribe's `viewer`: the connection's
   * RequestContext.auth subject, "" without one) and told (Server.resourceUpdated's `viewer`)
   * per reader, not once for everyone. Default: no resource does.
   */
  perViewer?(uri: string): boolean;
  /** We will send notifications/resources/list_changed. */
  resourceListChanged?: boolean;
  /** We will send notifications/message. */
  logging?: boolean;
  /**
   * The names of the tools a request may see and call, by who is asking (RequestContext.auth);
   * undefined: every tool. A tool left out is not listed to that request, and calling it answers
   * as calling a tool that does not exist.
   */
  toolsFor?(auth: AuthInfo | undefined): ReadonlySet<string> | undefined;
  /** Items per page in every list (default 100). */
  pageSize?: number;
  /**
   * The key that seals MRTR requestStates (32 bytes or more): the same on every instance behind
   * one URL, so a retry another instance serves still opens. Default: random per process.
   */
  requestStateKey?: Uint8Array;
  /** Bounds on the tasks of tools that run as tasks (DEFAULT_TASK_LIMITS where not given; tasks.ts). */
  taskLimits?: Partial<TaskLimits>;
}

/** What a session takes from its server. */
export interface SharedState {
  readonly definition: ServerDefinition;
  readonly features: ReadonlySet<Feature>;
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly pageSize: number;
  /** The tasks of every connection: a client may poll from another connection than the one that made the task. */
  readonly tasks: TaskStore;
  readonly subscriptionLimits: SubscriptionLimits;
  /** Counts subscribers across connections; the definition hears the first and the last. */
  readonly subscriptionHooks: SubscriptionHooks;
  initializeResult(version: HandshakeVersion): Record<string, unknown>;
  discoverResult(): Record<string, unknown>;
  /** Costly messages of every connection, a slice of the event loop at a time (turns.ts). */
  readonly turns: Turns;
}
