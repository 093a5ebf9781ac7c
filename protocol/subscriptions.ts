// Resource subscriptions: who is subscribed to what, keyed by the resource, bounded.
//
// A client subscribes with `resources/subscribe` (the handshake revisions) or lists URIs on a
// 2026-07-28 `subscriptions/listen` stream
// (https://modelcontextprotocol.io/specification/2025-11-25/server/resources "Subscriptions",
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions).
// "It is up to the server how to interpret" a URI (schema SubscribeRequestParams), and one
// resource has many spellings: `jira://issue/%20PROJ-200` and `jira://issue/proj-200` read
// the same issue. So every subscription is filed under the resource's canonical URI (the
// resource registry's `canonicalUri`) and remembers the spelling its client used:
// - the application watches each resource once, however many spellings name it, and hears
//   when a resource gains its first subscriber and loses its last (to note, then forget, what
//   it holds);
// - `notifications/resources/updated` goes out with the URI the client subscribed with, the
//   only one it can match; a client that used two spellings hears about both;
// - `resources/unsubscribe` ends the session's subscriptions to the resource in any spelling.
// We accept rather than refuse other spellings because `resources/read` accepts them: a host
// that read a URI a user typed can subscribe to that same URI.
//
// Every subscription costs memory and, when its resource changes, a re-read; so the number a
// session holds, the number one stream lists, the open streams and a URI's length are bounded
// (SubscriptionLimits), each refused past its limit with -32602 naming the limit.

import { invalidParams } from './errors.js';
import type { RequestId } from './json-rpc.js';

export interface SubscriptionLimits {
  /** URIs one session holds at once with resources/subscribe (default 1000). */
  maxPerSession: number;
  /** URIs one subscriptions/listen stream may list (default 1000). */
  maxPerStream: number;
  /** subscriptions/listen streams open at once (default 8). */
  maxStreams: number;
  /** Longest URI a client may subscribe to, in characters (default 2048). */
  maxUriLength: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: Readonly<SubscriptionLimits> = {
  maxPerSession: 1000,
  maxPerStream: 1000,
  maxStreams: 8,
  maxUriLength: 2048,
};

/** Who holds a subscription: the handshake session (null), or a listen stream by its request id. */
export type Holder = RequestId | null;

export interface Subscription {
  readonly holder: Holder;
  /** The spelling the client used. */
  readonly uri: string;
  /** The resource's canonical URI. */
  readonly key: string;
}

/** The server's count of subscribers; `viewer` is who the connection reads as (Session.viewer). */
export interface SubscriptionHooks {
  /** The resource gained its first subscriber. */
  added(key: string, viewer: string): void;
  /** Its last subscriber left. */
  removed(key: string, viewer: string): void;
  /** Some connection of the server holds a subscription to it: the resource exists and is watched. */
  watched(key: string, viewer: string): boolean;
}

export interface SubscriptionRegistry {
  /** resources/subscribe; subscribing again to a held URI changes nothing. */
  subscribe(uri: string): void;
  /** resources/unsubscribe: the session's subscriptions to that resource, in any spelling. */
  unsubscribe(uri: string): void;
  /** A listen stream's URIs, all or none. */
  openStream(id: RequestId, uris: readonly string[]): void;
  closeStream(id: RequestId): void;
  /** The connection closed: every subscription it held ends. */
  clear(): void;
  /** The subscriptions to the resource a URI names, in whatever spelling each used. */
  subscribersOf(uri: string): Iterable<Subscription>;
  /** Subscriptions held, every spelling and every stream counted. */
  count(): number;
}

/**
 * A connection of this server already subscribes to the resource a URI names: the server's
 * count (`hooks.watched`), not a session's, so it is read without making the session's registry,
 * which most connections never need (session.ts makes it on first use).
 */
export function isWatched(hooks: SubscriptionHooks, canonicalUri: (uri: string) => string, uri: string, viewer: string): boolean {
  return hooks.watched(canonicalUri(uri), viewer);
}

export function createSubscriptionRegistry(
  canonicalUri: (uri: string) => string,
  limits: SubscriptionLimits,
  hooks: SubscriptionHooks,
  viewer: string,
): SubscriptionRegistry {
  const byKey = new Map<string, Set<Subscription>>();
  const byHolder = new Map<Holder, Map<string, Subscription>>();
  let size = 0;

  function add(holder: Holder, uri: string): void {
    let held = byHolder.get(holder);
    if (held?.has(uri)) return;
    const subscription: Subscription = { holder, uri, key: canonicalUri(uri) };
    let subscribers = byKey.get(subscription.key);
    if (!subscribers) {
      hooks.added(subscription.key, viewer); // first, so a hook that throws leaves nothing half-added
      byKey.set(subscription.key, (subscribers = new Set()));
    }
    subscribers.add(subscription);
    if (!held) byHolder.set(holder, (held = new Map()));
    held.set(uri, subscription);
    size += 1;
  }

  function remove(subscription: Subscription): void {
    const held = byHolder.get(subscription.holder);
    held?.delete(subscription.uri);
    if (held?.size === 0) byHolder.delete(subscription.holder);
    size -= 1;
    const subscribers = byKey.get(subscription.key);
    subscribers?.delete(subscription);
    if (subscribers?.size !== 0) return;
    byKey.delete(subscription.key);
    hooks.removed(subscription.key, viewer);
  }

  function closeStream(id: Holder): void {
    for (const subscription of [...(byHolder.get(id)?.values() ?? [])]) remove(subscription);
  }

  function checkLength(uri: string): void {
    if (uri.length > limits.maxUriLength) {
      throw invalidParams(`Invalid params: a subscribed URI is at most ${limits.maxUriLength} characters; got ${uri.length}`);
    }
  }

  return {
    subscribe(uri) {
      checkLength(uri);
      const held = byHolder.get(null);
      if (held && held.size >= limits.maxPerSession && !held.has(uri)) {
        throw invalidParams(
          `Invalid params: a session holds at most ${limits.maxPerSession} subscriptions; unsubscribe from one first`,
        );
      }
      add(null, uri);
    },
    unsubscribe(uri) {
      const key = canonicalUri(uri);
      for (const subscription of [...(byKey.get(key) ?? [])]) if (subscription.holder === null) remove(subscription);
    },
    openStream(id, uris) {
      if (uris.length > limits.maxPerStream) {
        throw invalidParams(
          `Invalid params: a listen stream lists at most ${limits.maxPerStream} resourceSubscriptions; got ${uris.length}`,
        );
      }
      uris.forEach(checkLength);
      try {
        for (const uri of uris) add(id, uri);
      } catch (thrown) {
        closeStream(id);
        throw thrown;
      }
    },
    closeStream,
    clear() {
      for (const holder of [...byHolder.keys()]) closeStream(holder);
    },
    subscribersOf: (uri) => byKey.get(canonicalUri(uri)) ?? [],
    count: () => size,
  };
}
