// The persistent map supplier listing -> stay id (`stay_ids`), as a refresh holds it. At world
// scale that is ~10M listings and ~8M stay ids: as a Map of strings ~200 bytes an entry, 2 GB of
// a refresh's heap beside the listings it merges (issue 22). Here each stay id is one string
// numbered once, and a listing's key is a 96-bit fingerprint in typed arrays (~16 bytes a slot).

/** Three 32-bit hashes of a string (murmur-style rounds over its UTF-16 units, then fmix32 each), in `out`. */
function fingerprint(text: string, out: Uint32Array): void {
  let a = 0x9747b28c,
    b = 0x1b873593,
    c = 0x85ebca6b ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x5bd1e995);
    a ^= a >>> 15;
    b = Math.imul(b ^ unit, 0xcc9e2d51);
    b = (b << 13) | (b >>> 19);
    c = Math.imul(c + unit, 0x27d4eb2f);
    c ^= c >>> 13;
  }
  out[0] = mix(a);
  out[1] = mix(b ^ text.length);
  out[2] = mix(c);
}

/** fmix32: every input bit reaches every output bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Open addressing with linear probing: slots are a power of two, at most three quarters used. */
const FIRST_SLOTS = 1024;
const slotsFor = (entries: number): number => {
  let slots = FIRST_SLOTS;
  while (entries > slots * 0.75) slots *= 2;
  return slots;
};

/**
 * Listing keys (`${supplier}:${supplierStayId}`) to stay ids, and the set of every stay id ever
 * given. Stay ids are exact (strings compared). Listing keys are told apart by 96 bits: two keys
 * of 10M would share them with a chance of ~6e-16, and the cost would be one stay's id vote.
 */
export class StayIdMap {
  /** Every stay id, numbered in the order first seen. */
  private readonly ids: string[] = [];
  /** Stay id table: number + 1 per slot, 0 empty; keyed by the id's first hash. */
  private idSlots = new Int32Array(FIRST_SLOTS);
  /** Listing table: three fingerprint words and the stay number + 1 (0 empty) per slot. */
  private keyPrints = new Uint32Array(3 * FIRST_SLOTS);
  private keyStays = new Int32Array(FIRST_SLOTS);
  private keys = 0;
  private readonly print = new Uint32Array(3);

  /** Listing keys held. */
  get size(): number {
    return this.keys;
  }

  /** Stay ids held (every one ever given). */
  get stayCount(): number {
    return this.ids.length;
  }

  /** The stay id of a listing key, if it has one. */
  get(key: string): string | undefined {
    const n = this.stayOfKey(key);
    return n < 0 ? undefined : this.ids[n];
  }

  /** The number of the stay id a listing key has, -1 when none. */
  stayOfKey(key: string): number {
    fingerprint(key, this.print);
    const slot = this.keySlot(this.keyPrints, this.keyStays, this.print);
    return this.keyStays[slot] - 1;
  }

  /** Records that a listing key's stay id is `stayId` (a key set again takes the new one). */
  set(key: string, stayId: string): void {
    const n = this.addStay(stayId);
    fingerprint(key, this.print);
    let slot = this.keySlot(this.keyPrints, this.keyStays, this.print);
    if (this.keyStays[slot] === 0) {
      if (this.keys + 1 > this.keyStays.length * 0.75) {
        this.growKeys();
        slot = this.keySlot(this.keyPrints, this.keyStays, this.print);
      }
      this.keys++;
      this.keyPrints.set(this.print, 3 * slot);
    }
    this.keyStays[slot] = n + 1;
  }

  /** A stay id's number, -1 when it was never given. */
  stayNumber(stayId: string): number {
    const slot = this.idSlot(this.idSlots, stayId);
    return this.idSlots[slot] - 1;
  }

  /** The stay id numbered n. */
  stayId(n: number): string {
    return this.ids[n];
  }

  /** A stay id's number, numbering it if new: from then on it counts as given. */
  addStay(stayId: string): number {
    let slot = this.idSlot(this.idSlots, stayId);
    if (this.idSlots[slot] !== 0) return this.idSlots[slot] - 1;
    if (this.ids.length + 1 > this.idSlots.length * 0.75) {
      this.growIds();
      slot = this.idSlot(this.idSlots, stayId);
    }
    this.ids.push(stayId);
    this.idSlots[slot] = this.ids.length;
    return this.ids.length - 1;
  }

  /** The slot holding stayId, or the empty one where it would go. */
  private idSlot(slots: Int32Array, stayId: string): number {
    fingerprint(stayId, this.print);
    const last = slots.length - 1;
    for (let slot = this.print[0] & last; ; slot = (slot + 1) & last) {
      const held = slots[slot];
      if (held === 0 || this.ids[held - 1] === stayId) return slot;
    }
  }

  /** The slot holding a fingerprint, or the empty one where it would go. */
  private keySlot(prints: Uint32Array, stays: Int32Array, print: Uint32Array): number {
    const last = stays.length - 1;
    for (let slot = print[0] & last; ; slot = (slot + 1) & last) {
      if (stays[slot] === 0) return slot;
      const p = 3 * slot;
      if (prints[p] === print[0] && prints[p + 1] === print[1] && prints[p + 2] === print[2]) return slot;
    }
  }

  private growIds(): void {
    const slots = new Int32Array(slotsFor(this.ids.length + 1));
    for (let n = 0; n < this.ids.length; n++) slots[this.idSlot(slots, this.ids[n])] = n + 1;
    this.idSlots = slots;
  }

  private growKeys(): void {
    const size = slotsFor(this.keys + 1);
    const prints = new Uint32Array(3 * size);
    const stays = new Int32Array(size);
    const print = new Uint32Array(3);
    for (let old = 0; old < this.keyStays.length; old++) {
      if (this.keyStays[old] === 0) continue;
      print.set(this.keyPrints.subarray(3 * old, 3 * old + 3));
      const slot = this.keySlot(prints, stays, print);
      prints.set(print, 3 * slot);
      stays[slot] = this.keyStays[old];
    }
    this.keyPrints = prints;
    this.keyStays = stays;
  }
}
