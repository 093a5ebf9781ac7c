// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// What the tracker makes from a store snapshot (an issue's JSON text, a tool result), kept
// for the next read of the same snapshot. The store hands out frozen snapshots and makes new
// ones on every change, so a snapshot is a key that can never go stale.
//
// Bounded by size, not count: a WeakMap would keep one entry per issue ever read for as long
// as the issue is unchanged, which on a 100,000-issue file is hundreds of megabytes. The
// least recently used entries go first.
//
// A cache that most snapshots pass through once (search pages: a search spelled another way
// is another page) can keep only what is asked for a second time (`onSecondUse`): an entry
// kept for a while and then dropped is the costliest kind of garbage, since it outlives the
// young generation and must be found and freed by a full collection (docs/performance.md).

export interface SnapshotCache<Snapshot extends object, Made> {
  /** What `make` makes of the snapshot, made once while it stays in the cache. */
  get(snapshot: Snapshot): Made;
  /** What is kept for the snapshot, if anything (made elsewhere: `keep`). */
  kept(snapshot: Snapshot): Made | undefined;
  /** Keeps what was made for the snapshot some other way than `make` (in slices: issue-texts.ts). */
  keep(snapshot: Snapshot, made: Made): void;
}

export interface SnapshotCacheOptions {
  /** Keep what is made for a snapshot only when it is asked for again (made twice then). */
  onSecondUse?: boolean;
}

/** At most `maxChars` characters (as `sizeOf` counts them) are kept. */
export function createSnapshotCache<Snapshot extends object, Made>(
  make: (snapshot: Snapshot) => Made,
  sizeOf: (made: Made) => number,
  maxChars: number,
  options: SnapshotCacheOptions = {},
): SnapshotCache<Snapshot, Made> {
  const entries = new Map<Snapshot, { made: Made; size: number }>();
  // Snapshots asked for once; weak, so a snapshot nobody else holds is not kept alive here.
  const seenOnce = new WeakSet<Snapshot>();
  let total = 0;
  function kept(snapshot: Snapshot): Made | undefined {
    const found = entries.get(snapshot);
    if (found === undefined) return undefined;
    // Map order is insertion order: moving the entry to the end marks it recently used.
    entries.delete(snapshot);
    entries.set(snapshot, found);
    return found.made;
  }

  function keep(snapshot: Snapshot, made: Made): void {
    const size = sizeOf(made);
    if (size > maxChars || entries.has(snapshot)) return;
    entries.set(snapshot, { made, size });
    total += size;
    for (const [oldest, entry] of entries) {
      if (total <= maxChars) break;
      entries.delete(oldest);
      total -= entry.size;
    }
  }

  return {
    get(snapshot) {
      const found = kept(snapshot);
      if (found !== undefined) return found;
      if (options.onSecondUse === true && !seenOnce.has(snapshot)) {
        seenOnce.add(snapshot);
        return make(snapshot);
      }
      const made = make(snapshot);
      keep(snapshot, made);
      return made;
    },
    kept,
    keep,
  };
}
