// Sets of issue ids, and the bitmaps a query combines them in.
//
// An issue's id is its place in the order issues were created (issue-table.ts): 0, 1, 2, ...
// with no gaps, since an issue is never removed. Within one project that is also key order,
// since a project's numbers only grow (apply.ts refuses a number below the next one).
//
// An index keeps one IdSet per value (field-index.ts) or word (word-index.ts). A set of few
// ids is a sorted array; one that would take more memory as an array than as a bitmap (one
// bit per issue) becomes a bitmap: the choice Roaring bitmaps make. Memory then stays under
// about 8 bytes per id an index holds, and under one bit per issue for any one set.
//
// A query works on bitmaps over every issue (`Bits`, a Uint32Array, 32 issues a word): an AND,
// an OR or a NOT is one pass over n/32 words, whatever the sets' sizes, so
// `priority IN (P0, P1) AND sprint IN openSprints()` costs a few thousand word operations
// at 100,000 issues instead of a set lookup per key.

/** One bit per issue id; bits past the issue count are always 0. */
export type Bits = Uint32Array;

// Performance (a first reading may skip it): where a query's bitmaps come from.
/**
 * A query makes a handful of bitmaps and drops them when it answers. `new Uint32Array(n)` of
 * more than 64 bytes gets a backing store of its own outside V8's heap, allocated, zeroed,
 * counted as external memory and freed by the collector one by one: at 1,000 issues (128 bytes
 * a bitmap), most of the time of search_issues' index answer went there (docs/performance.md).
 * So the bitmaps are views cut one after another from a shared zeroed buffer, a new one when it
 * is used up; no view is handed out twice, so each starts at zero. A buffer lives as long as any
 * of its views: these are a query's temporaries, so not long (the indexes' own sets, which live
 * on, make their bitmaps themselves). A bitmap larger than a quarter of a buffer (over 131,072
 * issues) gets a buffer of its own.
 */
const SHARED_BUFFER_BYTES = 64 * 1024;
let shared = new ArrayBuffer(0); // the first on the first query: a start makes none
let sharedUsed = 0;

export function emptyBits(count: number): Bits {
  const words = (count + 31) >>> 5;
  const bytes = words * 4;
  if (bytes > SHARED_BUFFER_BYTES / 4) return new Uint32Array(words);
  if (sharedUsed + bytes > shared.byteLength) {
    shared = new ArrayBuffer(SHARED_BUFFER_BYTES);
    sharedUsed = 0;
  }
  const bits = new Uint32Array(shared, sharedUsed, words);
  sharedUsed += bytes;
  return bits;
}

/** Every id below `count`. */
export function allBits(count: number): Bits {
  const bits = emptyBits(count);
  bits.fill(0xffffffff);
  clearPast(bits, count);
  return bits;
}

/** The ids below `count` not in `bits`. */
export function notBits(bits: Bits, count: number): Bits {
  for (let i = 0; i < bits.length; i++) bits[i] = ~(bits[i] as number);
  clearPast(bits, count);
  return bits;
}

function clearPast(bits: Bits, count: number): void {
  const tail = count & 31;
  if (tail !== 0 && bits.length > 0) bits[bits.length - 1] = (bits[bits.length - 1] as number) & ((1 << tail) - 1);
}

/** `into` becomes `into` AND `other`. */
export function andBits(into: Bits, other: Bits): Bits {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] as number) & (other[i] as number);
  return into;
}

/** `into` becomes `into` OR `other`. */
export function orBits(into: Bits, other: Bits): Bits {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] as number) | (other[i] as number);
  return into;
}

export function countBits(bits: Bits): number {
  let count = 0;
  for (let i = 0; i < bits.length; i++) {
    let word = bits[i] as number;
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    count += (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return count;
}

/** An id past the bitmap's end reads undefined, which `>>>` makes 0: not in. */
export function hasBit(bits: Bits, id: number): boolean {
  return (((bits[id >>> 5] as number) >>> (id & 31)) & 1) === 1;
}

export function setBit(bits: Bits, id: number): void {
  bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31));
}

/** Visits the ids of `bits` in ascending order (descending if asked) until `visit` returns false. */
export function eachBit(bits: Bits, visit: (id: number) => boolean | void, descending = false): void {
  for (let n = 0; n < bits.length; n++) {
    const i = descending ? bits.length - 1 - n : n;
    let word = bits[i] as number;
    while (word !== 0) {
      const bit = descending ? 31 - Math.clz32(word) : 31 - Math.clz32(word & -word);
      if (visit((i << 5) + bit) === false) return;
      word &= ~(1 << bit);
    }
  }
}

/**
 * A mutable set of issue ids: a sorted array while small, a bitmap once the array would take
 * more than twice the bitmap's memory (8 bytes an id against one bit an issue), and an array
 * again when it shrinks below an eighth of that: the gap keeps a set that moves around one size
 * from converting back and forth.
 */
export class IdSet {
  #ids: number[] | null;
  #bits: Bits | null = null;
  #size: number;

  /** `ids` ascending, no repeats; the set owns an array it is given (a typed array is copied). */
  constructor(ids: number[] | Uint32Array = []) {
    this.#size = ids.length;
    const last = ids[ids.length - 1] ?? 0;
    if (this.#size * 8 > 2 * bitmapBytes(last)) {
      this.#ids = null;
      this.#bits = new Uint32Array((last >>> 5) + 1);
      for (let i = 0; i < ids.length; i++) setBit(this.#bits, ids[i] as number);
    } else this.#ids = Array.isArray(ids) ? ids : Array.from(ids);
  }

  get size(): number {
    return this.#size;
  }

  has(id: number): boolean {
    if (this.#bits !== null) return hasBit(this.#bits, id);
    return indexOf(this.#ids as number[], id) >= 0;
  }

  add(id: number): void {
    if (this.#bits !== null) {
      if (id >>> 5 >= this.#bits.length) this.#bits = grown(this.#bits, id);
      if (hasBit(this.#bits, id)) return;
      setBit(this.#bits, id);
    } else {
      const ids = this.#ids as number[];
      // New issues have the highest id: most adds are appends.
      if (ids.length === 0 || (ids[ids.length - 1] as number) < id) ids.push(id);
      else {
        const at = indexOf(ids, id);
        if (at >= 0) return;
        ids.splice(-at - 1, 0, id);
      }
    }
    this.#size += 1;
    this.#fit();
  }

  delete(id: number): void {
    if (!this.has(id)) return;
    if (this.#bits !== null) this.#bits[id >>> 5] = (this.#bits[id >>> 5] as number) & ~(1 << (id & 31));
    else (this.#ids as number[]).splice(indexOf(this.#ids as number[], id), 1);
    this.#size -= 1;
    this.#fit();
  }

  /** Sets this set's ids in `into` (a query's bitmap over every issue). */
  orInto(into: Bits): Bits {
    if (this.#bits !== null) {
      const bits = this.#bits;
      const words = Math.min(bits.length, into.length);
      for (let i = 0; i < words; i++) into[i] = (into[i] as number) | (bits[i] as number);
    } else for (const id of this.#ids as number[]) setBit(into, id);
    return into;
  }

  /** Visits each id, ascending. */
  forEach(visit: (id: number) => void): void {
    if (this.#bits !== null) eachBit(this.#bits, visit);
    else (this.#ids as number[]).forEach((id) => visit(id));
  }

  /** The ids, ascending. */
  toArray(): Uint32Array {
    if (this.#ids !== null) return Uint32Array.from(this.#ids);
    const ids = new Uint32Array(this.#size);
    const bits = this.#bits as Bits;
    let at = 0;
    for (let i = 0; i < bits.length; i++) {
      for (let word = bits[i] as number; word !== 0; word &= word - 1) ids[at++] = (i << 5) + 31 - Math.clz32(word & -word);
    }
    return ids;
  }

  /** The lowest id (-1 when empty). */
  first(): number {
    let found = -1;
    if (this.#bits !== null)
      eachBit(this.#bits, (id) => {
        found = id;
        return false;
      });
    else found = (this.#ids as number[])[0] ?? -1;
    return found;
  }

  /** Bitmap or array, whichever fits the size now (see the class comment). */
  #fit(): void {
    if (this.#ids !== null) {
      const last = this.#ids[this.#ids.length - 1] ?? 0;
      if (this.#size * 8 > 2 * bitmapBytes(last)) {
        const bits = new Uint32Array((last >>> 5) + 1);
        for (const id of this.#ids) setBit(bits, id);
        this.#bits = bits;
        this.#ids = null;
      }
    } else if (this.#size * 8 < ((this.#bits as Bits).length * 4) / 4) {
      const ids: number[] = [];
      eachBit(this.#bits as Bits, (id) => void ids.push(id));
      this.#ids = ids;
      this.#bits = null;
    }
  }
}

function bitmapBytes(highestId: number): number {
  return ((highestId >>> 5) + 1) * 4;
}

/** A bitmap with room for `id`: twice the words needed, so growing one issue at a time is amortized. */
function grown(bits: Bits, id: number): Bits {
  const bigger = new Uint32Array(Math.max((id >>> 5) + 1, bits.length * 2));
  bigger.set(bits);
  return bigger;
}

/** Binary search: the index of `id`, or -(insertion point) - 1. */
function indexOf(ids: readonly number[], id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = ids[middle] as number;
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle;
  }
  return -low - 1;
}
