/** A slot that never held an id (a probe stops at it), and one whose id was deleted (a probe passes over it). */
const emptySlot = 0;
const deletedSlot = -1;

/** The first table's slots; it doubles when half full, so a probe stays short. */
const initialSlots = 1024;

/**
 * A probe longer than this means ids that collide by design (crafted input): the index then keeps
 * its ids in a Map, whose hash is seeded per process, and stays linear.
 */
const maxProbe = 64;

/** FNV-1a over the UTF-16 code units, then murmur3's finaliser, so the low bits a slot uses depend on every unit. */
export const messageIdHash = (id: string): number => {
  let hash = 0x811c9dc5;
  for (let unit = 0; unit < id.length; unit += 1) hash = Math.imul(hash ^ id.charCodeAt(unit), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
};

/**
 * The row of each message id of a legacy mailbox kept as rows (legacy-message-columns.ts): an
 * open-addressing table of each id's hash and row, in two typed arrays. Nearly every queued
 * message's id is new, and a Map of a hundred thousand ids answers that miss by walking entries
 * and their key strings spread over the heap; here a miss reads a slot or two of one array, the
 * id itself is compared (through its row) only when the hashes agree, and the table holds no
 * pointer for the collector to trace.
 */
export class MessageIdIndex {
  private hashes = new Int32Array(initialSlots);
  /** A row + 1, or emptySlot, or deletedSlot. */
  private slots = new Int32Array(initialSlots);
  /** Slots not empty (ids and deleted ones). */
  private used = 0;
  private count = 0;
  /** Set once ids collide by design (see maxProbe): then it holds every id. */
  private fallback: Map<string, number> | undefined;

  /** `idAt(row)`: the id the row of a held id holds. `hashOf` is for tests (ids that collide). */
  constructor(
    private readonly idAt: (row: number) => string,
    private readonly hashOf: (id: string) => number = messageIdHash,
  ) {}

  get size(): number {
    return this.fallback?.size ?? this.count;
  }

  /** The row of `id`, or -1. */
  get(id: string): number {
    if (this.fallback !== undefined) return this.fallback.get(id) ?? -1;
    const { slots, hashes } = this;
    const hash = this.hashOf(id);
    const mask = slots.length - 1;
    for (let slot = hash & mask, probe = 0; probe <= mask; slot = (slot + 1) & mask, probe += 1) {
      const held = slots[slot] as number;
      if (held === emptySlot) return -1;
      if (held !== deletedSlot && hashes[slot] === hash && this.idAt(held - 1) === id) return held - 1;
    }
    return -1;
  }

  /** Hold `id` at `row`, unless it is held already: then false, and it keeps its row. */
  add(id: string, row: number): boolean {
    if (this.fallback !== undefined) return this.addToFallback(id, row);
    if (2 * (this.used + 1) > this.slots.length) this.resize();
    const placed = this.place(id, this.hashOf(id), row);
    if (placed !== undefined) return placed;
    this.fallBack(this.heldRows());
    return this.addToFallback(id, row);
  }

  /** Place an id not held, or find it held (false); undefined when the probe grew too long. */
  private place(id: string, hash: number, row: number): boolean | undefined {
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    let free = -1;
    for (let slot = hash & mask, probe = 0; probe <= maxProbe; slot = (slot + 1) & mask, probe += 1) {
      const held = slots[slot] as number;
      if (held === emptySlot) {
        if (free === -1) {
          free = slot;
          this.used += 1;
        }
        hashes[free] = hash;
        slots[free] = row + 1;
        this.count += 1;
        return true;
      }
      if (held === deletedSlot) {
        if (free === -1) free = slot;
      } else if (hashes[slot] === hash && this.idAt(held - 1) === id) return false;
    }
    return undefined;
  }

  /** Whether `id` was held. */
  delete(id: string): boolean {
    if (this.fallback !== undefined) return this.fallback.delete(id);
    const { slots, hashes } = this;
    const hash = this.hashOf(id);
    const mask = slots.length - 1;
    for (let slot = hash & mask, probe = 0; probe <= mask; slot = (slot + 1) & mask, probe += 1) {
      const held = slots[slot] as number;
      if (held === emptySlot) return false;
      if (held !== deletedSlot && hashes[slot] === hash && this.idAt(held - 1) === id) {
        slots[slot] = deletedSlot;
        this.count -= 1;
        return true;
      }
    }
    return false;
  }

  clear(): void {
    this.hashes = new Int32Array(initialSlots);
    this.slots = new Int32Array(initialSlots);
    this.used = 0;
    this.count = 0;
    this.fallback = undefined;
  }

  private addToFallback(id: string, row: number): boolean {
    const fallback = this.fallback as Map<string, number>;
    if (fallback.has(id)) return false;
    fallback.set(id, row);
    return true;
  }

  /** Every held row, in slot order. */
  private heldRows(): number[] {
    const rows: number[] = [];
    for (const held of this.slots) if (held !== emptySlot && held !== deletedSlot) rows.push(held - 1);
    return rows;
  }

  private fallBack(rows: readonly number[]): void {
    this.fallback = new Map(rows.map((row) => [this.idAt(row), row]));
  }

  /** A table of four times the held ids' slots at least (deleted ones are dropped), every id placed again by its hash. */
  private resize(): void {
    const { slots, hashes } = this;
    let length = initialSlots;
    while (length < 4 * (this.count + 1)) length *= 2;
    this.hashes = new Int32Array(length);
    this.slots = new Int32Array(length);
    this.used = 0;
    this.count = 0;
    const mask = length - 1;
    for (let from = 0; from < slots.length; from += 1) {
      const held = slots[from] as number;
      if (held === emptySlot || held === deletedSlot) continue;
      // The ids held are distinct: each goes to the first empty slot of its probe.
      const hash = hashes[from] as number;
      let slot = hash & mask;
      while (this.slots[slot] !== emptySlot) slot = (slot + 1) & mask;
      this.hashes[slot] = hash;
      this.slots[slot] = held;
      this.used += 1;
      this.count += 1;
    }
  }
}
