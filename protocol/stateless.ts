// The stateless era, protocol 2026-07-28: what a request must carry, what a result must carry,
// and the one place where a 2026 client can receive notifications outside a request.
//
// "Each request is self-contained": the version, the client's capabilities and identity come
// from that request's `_meta`, never from earlier traffic (https://modelcontextprotocol.io/specification/2026-07-28/basic,
// "Statelessness"; rule 3). There is no `initialize`, no `ping`, no
// `logging/setLevel`, no `resources/subscribe`; `subscriptions/listen` replaces the last.

import type * as z from 'zod/mini';
import { ErrorCode, RpcError, excerpt, invalidParams } from './errors.js';
import { type OutgoingMessage, type RequestId, notificationMessage } from './json-rpc.js';
import type { CacheHint } from './methods.js';
import { PreEncoded } from './pre-encoded.js';
import {
  type ClientCapabilities,
  type ClientInfo,
  type ListenFilter,
  type LogLevel,
  META,
  QUICK_CHECKS,
  StatelessMetaSchema,
} from './schemas.js';
import type { SubscriptionRegistry } from './subscriptions.js';
import type { Route } from './transport.js';
import { describeIssues } from './validation.js';
import { STATELESS_VERSIONS, type StatelessVersion, isStatelessVersion } from './versions.js';

export interface StatelessRequest {
  version: StatelessVersion;
  client: { capabilities: ClientCapabilities; info: ClientInfo };
  logLevel: LogLevel | undefined;
}

type StatelessMeta = z.infer<typeof StatelessMetaSchema>;
const isUsualMeta = QUICK_CHECKS.get(StatelessMetaSchema)!;

/** True when a request speaks 2026-07-28: it names its protocol version in `_meta`. */
export function carriesStatelessMeta(params: unknown): boolean {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, META.protocolVersion);
}

/**
 * Reads a 2026-07-28 request's `_meta`. A missing or malformed required field is -32602
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic "_meta"); a version we do not serve is -32022 with what we
 * support and what was asked (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning).
 */
export function readStatelessMeta(params: unknown): StatelessRequest {
  const meta = (params as { _meta?: unknown } | undefined)?._meta ?? {};
  // The usual shape skips zod (schemas.ts, QUICK_CHECKS), which would return it unchanged.
  const parsed = isUsualMeta(meta)
    ? { success: true as const, data: meta as StatelessMeta }
    : StatelessMetaSchema.safeParse(meta, { reportInput: true });
  if (!parsed.success) {
    throw invalidParams(
      `Invalid params: a 2026-07-28 request needs _meta ${META.protocolVersion} and ${META.clientCapabilities} (${describeIssues(parsed.error.issues)})`,
    );
  }
  const version = parsed.data[META.protocolVersion];
  if (!isStatelessVersion(version)) {
    throw new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${excerpt(version)}`, {
      supported: [...STATELESS_VERSIONS],
      requested: excerpt(version),
    });
  }
  return {
    version,
    client: {
      capabilities: parsed.data[META.clientCapabilities],
      info: parsed.data[META.clientInfo] ?? { name: 'unknown', version: 'unknown' },
    },
    logLevel: parsed.data[META.logLevel],
  };
}

/**
 * Every 2026-07-28 result says what it is (`resultType`, "complete" unless a handler returned
 * an interim "input_required"), who made it (`_meta` serverInfo, SHOULD), and, for the
 * cacheable methods, how long it stays fresh (`ttlMs`, `cacheScope`; MRTR interim results are
 * never cacheable: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and
 * https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching).
 */
export function completeResult(result: unknown, cache: CacheHint | undefined, serverInfo: object): unknown {
  // A result already encoded (a tool's, tools.ts) has none of these fields: they go at its end, as below.
  if (result instanceof PreEncoded) return result.withFields(encodedFields(cache, serverInfo));
  // Object.assign, not a spread: V8 (Node 20) gives a spread's copy a shape of its own, and
  // each key added to it afterwards then makes yet another shape (docs/performance.md).
  return completeFields(Object.assign({}, result), cache, serverInfo);
}

/**
 * The fields of an encoded result, encoded once for the last hint and server asked: a tool's
 * results get the same ones every time, and encoding them anew for each answer was the largest
 * garbage of a 2026-07-28 get_issue (717 of 4,340 bytes; docs/performance.md). The server's
 * info is its definition's, made once.
 */
let lastFields: { ttlMs?: number; scope?: string; serverInfo: object; encoded: PreEncoded<Record<string, unknown>> } | undefined;

function encodedFields(cache: CacheHint | undefined, serverInfo: object): PreEncoded<Record<string, unknown>> {
  const last = lastFields;
  if (last?.serverInfo === serverInfo && last.ttlMs === cache?.ttlMs && last.scope === cache?.scope) return last.encoded;
  const encoded = PreEncoded.ofValue(completeFields({}, cache, serverInfo));
  lastFields = { ttlMs: cache?.ttlMs, scope: cache?.scope, serverInfo, encoded };
  return encoded;
}

/** Adds the fields every 2026-07-28 result has to `out`, a copy of the result. */
function completeFields(out: Record<string, unknown>, cache: CacheHint | undefined, serverInfo: object): Record<string, unknown> {
  out.resultType ??= 'complete';
  if (cache && out.resultType === 'complete') {
    out.ttlMs = cache.ttlMs;
    out.cacheScope = cache.scope;
  }
  out._meta = Object.assign({}, out._meta, { [META.serverInfo]: serverInfo });
  return out;
}

// ---- subscriptions/listen -----------------------------------------------------------------

export interface ListenStreams {
  /**
   * Acknowledges and opens a stream; resolves with its closing result when the server ends it.
   * Past the limit on open streams, or on the URIs one lists, it throws and nothing is sent.
   */
  open(id: RequestId, honoured: ListenFilter, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Ends every open stream gracefully: each gets its success result. */
  closeAll(): void;
  /** Tells one stream that a resource it lists, spelled as it listed it, changed. */
  resourceUpdated(id: RequestId, uri: string): void;
  resourceListChanged(): void;
  /** How many streams are open. */
  count(): number;
}

interface Stream {
  listChanges: boolean;
  close(): void;
}

/** The streams' resource URIs are kept in `subscriptions`, beside the session's own. */
export function createListenStreams(
  send: (message: OutgoingMessage, route: Route) => void,
  subscriptions: SubscriptionRegistry,
  maxStreams: number,
): ListenStreams {
  const streams = new Map<RequestId, Stream>();
  // https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions:
  // every notification on a stream carries its id.
  const tagged = (id: RequestId, params: Record<string, unknown> = {}) => ({ ...params, _meta: { [META.subscriptionId]: id } });

  return {
    open(id, honoured, signal) {
      if (streams.size >= maxStreams) {
        throw invalidParams(`Invalid params: at most ${maxStreams} listen streams are open at once; cancel one first`);
      }
      subscriptions.openStream(id, honoured.resourceSubscriptions ?? []);
      // The acknowledgement comes first, before any other notification of this stream.
      send(notificationMessage('notifications/subscriptions/acknowledged', tagged(id, { notifications: honoured })), {
        relatedRequestId: id,
      });
      return new Promise((resolve) => {
        const stream: Stream = { listChanges: honoured.resourcesListChanged === true, close: () => end() };
        // Ended once, by the server (closeAll) or the client (cancel), whichever comes first.
        const end = () => {
          if (streams.get(id) !== stream) return;
          streams.delete(id);
          subscriptions.closeStream(id);
          resolve({ _meta: { [META.subscriptionId]: id } });
        };
        // A cancelled stream sends nothing more; the peer drops the result of an aborted request.
        signal.addEventListener('abort', end, { once: true });
        streams.set(id, stream);
      });
    },
    closeAll() {
      for (const stream of [...streams.values()]) stream.close();
    },
    resourceUpdated(id, uri) {
      if (streams.has(id))
        send(notificationMessage('notifications/resources/updated', tagged(id, { uri })), { relatedRequestId: id });
    },
    resourceListChanged() {
      for (const [id, stream] of streams) {
        if (stream.listChanges) {
          send(notificationMessage('notifications/resources/list_changed', tagged(id)), { relatedRequestId: id });
        }
      }
    },
    count: () => streams.size,
  };
}
