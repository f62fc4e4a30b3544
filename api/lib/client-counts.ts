/**
 * How many times each client has been counted in one window of a rate limit (api/lib/rate-counters.ts),
 * kept in typed arrays: the garbage collector never walks them.
 *
 * Why not a Map: under a flood of new addresses a limit holds 100,000 clients, and a Map written on every
 * request is looked through whole by every collection of young objects (it is old and was written to).
 * Under such a load the discount check's p99 was 6 ms with a Map and 1.6–2.2 ms with these arrays, and the
 * server held about 90 MB more (docs/decisions/007-cheap-rate-limits-count-in-memory.md).
 *
 * A client is known by a 64-bit fingerprint of its key: two 32-bit MurmurHash3 values with seeds drawn
 * when the process starts, so nobody can choose an address that shares another client's fingerprint. Two
 * of 100,000 clients share one by chance about once in 10^9 windows; they would then share an allowance.
 * The slots are an open-addressing table with linear probing (a count of 0 is an empty slot); a ring
 * remembers the clients in the order they came, so a full table drops the one counted longest ago.
 */

const FIRST_SLOTS = 1024
const MAX_COUNT = 0xffff_ffff
/** The table grows (doubling) before it is more than half full, so a probe meets an empty slot soon. */
const MOST_FULL = 0.5

/** Per process: what a client's fingerprint is cannot be worked out from outside. */
const SEEDS = crypto.getRandomValues(new Uint32Array(2))
const HIGH_SEED = SEEDS[0] as number
const LOW_SEED = SEEDS[1] as number

export class ClientCounts {
  readonly #maxClients: number
  #mask = FIRST_SLOTS - 1
  #high = new Uint32Array(FIRST_SLOTS)
  #low = new Uint32Array(FIRST_SLOTS)
  #counts = new Uint32Array(FIRST_SLOTS)
  #size = 0
  /** The clients' fingerprints in the order they were first counted; a ring once the table is full. */
  #ringHigh = new Uint32Array(0)
  #ringLow = new Uint32Array(0)
  #oldest = 0

  /** `maxClients`: counted at most, then the client counted longest ago makes room for a new one. */
  constructor(maxClients: number) {
    if (!Number.isSafeInteger(maxClients) || maxClients < 1) throw new Error('maxClients must be at least 1')
    this.#maxClients = maxClients
  }

  get size(): number {
    return this.#size
  }

  /** Counts the client once more; returns its count in this window, this request included. */
  increment(key: string): number {
    const high = Bun.hash.murmur32v3(key, HIGH_SEED)
    const low = Bun.hash.murmur32v3(key, LOW_SEED)
    const found = this.#find(high, low)
    if (found >= 0) {
      // Held at the largest count a slot stores: wrapping to 0 would mark the slot empty.
      const count = Math.min((this.#counts[found] as number) + 1, MAX_COUNT)
      this.#counts[found] = count
      return count
    }
    if (this.#size >= this.#maxClients) this.#replaceOldest(high, low)
    else this.#remember(high, low)
    if ((this.#size + 1) / this.#counts.length > MOST_FULL) this.#grow()
    this.#place(high, low, 1)
    this.#size += 1
    return 1
  }

  /** The slot holding this fingerprint, or -1. */
  #find(high: number, low: number): number {
    for (let slot = low & this.#mask; this.#counts[slot] !== 0; slot = (slot + 1) & this.#mask) {
      if (this.#high[slot] === high && this.#low[slot] === low) return slot
    }
    return -1
  }

  #place(high: number, low: number, count: number): void {
    let slot = low & this.#mask
    while (this.#counts[slot] !== 0) slot = (slot + 1) & this.#mask
    this.#high[slot] = high
    this.#low[slot] = low
    this.#counts[slot] = count
  }

  /** Appends a new client to the ring, which grows with the table until it holds `maxClients`. */
  #remember(high: number, low: number): void {
    if (this.#size >= this.#ringHigh.length) {
      const length = Math.min(this.#maxClients, Math.max(FIRST_SLOTS, this.#ringHigh.length * 2))
      this.#ringHigh = grown(this.#ringHigh, length)
      this.#ringLow = grown(this.#ringLow, length)
    }
    this.#ringHigh[this.#size] = high
    this.#ringLow[this.#size] = low
  }

  /** The table is full: the client counted longest ago leaves it, and the new one takes its place in the ring. */
  #replaceOldest(high: number, low: number): void {
    const slot = this.#find(this.#ringHigh[this.#oldest] as number, this.#ringLow[this.#oldest] as number)
    if (slot >= 0) this.#remove(slot)
    this.#size -= 1
    this.#ringHigh[this.#oldest] = high
    this.#ringLow[this.#oldest] = low
    this.#oldest = (this.#oldest + 1) % this.#maxClients
  }

  /**
   * Empties a slot without breaking a probe that passes it: each later entry of the run moves back into the
   * gap unless its home slot lies after the gap (backward-shift deletion).
   */
  #remove(slot: number): void {
    let gap = slot
    for (let next = (gap + 1) & this.#mask; this.#counts[next] !== 0; next = (next + 1) & this.#mask) {
      const home = (this.#low[next] as number) & this.#mask
      // The entry may move to the gap only if its home is not cyclically within (gap, next].
      const homeAfterGap = gap <= next ? home > gap && home <= next : home > gap || home <= next
      if (homeAfterGap) continue
      this.#high[gap] = this.#high[next] as number
      this.#low[gap] = this.#low[next] as number
      this.#counts[gap] = this.#counts[next] as number
      gap = next
    }
    this.#counts[gap] = 0
  }

  #grow(): void {
    const high = this.#high
    const low = this.#low
    const counts = this.#counts
    const slots = counts.length * 2
    this.#mask = slots - 1
    this.#high = new Uint32Array(slots)
    this.#low = new Uint32Array(slots)
    this.#counts = new Uint32Array(slots)
    for (let slot = 0; slot < counts.length; slot++) {
      const count = counts[slot] as number
      if (count !== 0) this.#place(high[slot] as number, low[slot] as number, count)
    }
  }
}

function grown(array: Uint32Array, length: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(length)
  bigger.set(array)
  return bigger
}
