// Encoded pod bytes, made once per pod version (and per field mask) and shared by every list, get
// and watch: encoding costs ~70 µs a pod, so a 5,000-pod list would otherwise take a third of a second.
import { applyFieldMask } from '../mask/field-mask';
import type { FieldMask } from '../mask/field-mask';
import { encodePod } from '../pod/encode';
import type { PodTree } from '../pod/pod-tree';
import type { PodFaults } from './pod-faults';
import type { PodStore, StoredPod } from './pod-store';

/** How many distinct masks keep their encodings; clients use one or two at a time. */
const MASKS_KEPT = 8;

interface Cached {
  version: number;
  bytes: Uint8Array;
}

export class EncodedPods {
  private readonly full = new Map<string, Cached>();
  private readonly masked = new Map<string, Map<string, Cached>>();

  /** `faults`: pods served broken on purpose (nodescope sim --undecodable and the like). */
  constructor(private readonly faults?: PodFaults) {}

  /**
   * Encodings of the store's pods, made up front and again at every change, so a list or a watch
   * replay of thousands of pods never waits for the encoder (a replay slower than the churn would
   * overflow the watcher's buffer before it is done).
   */
  static following(store: PodStore, faults?: PodFaults): EncodedPods {
    const encoded = new EncodedPods(faults);
    const refresh = (uid: string, entry: StoredPod) => {
      try {
        encoded.bytes(uid, entry);
      } catch {
        // A pod the encoder refuses is reported (INTERNAL) by whichever call asks for it.
      }
    };
    for (const uid of store.uids()) refresh(uid, store.entry(uid)!);
    store.subscribe((event) => {
      if (event.type === 'DELETED') encoded.forget(event.uid);
      else refresh(event.uid, event);
    });
    return encoded;
  }

  /** The pod's bytes, whole or with only the mask's fields. */
  bytes(uid: string, entry: StoredPod, mask?: FieldMask): Uint8Array {
    const cache = mask ? this.maskCache(mask) : this.full;
    const hit = cache.get(uid);
    if (hit && hit.version === entry.version) return hit.bytes;
    const pod = mask ? applyFieldMask(entry.pod, mask) : entry.pod;
    const encoded = this.faults ? this.faults.encode(uid, pod) : encodePod(pod);
    // The encoder's bytes are a view of Node's shared 8 KiB buffer pool, which each kept view keeps whole:
    // over twice their size, most of a 1,000-node simulated fleet's memory. A copy of the exact size is kept.
    const bytes = encoded.byteLength === encoded.buffer.byteLength ? encoded : new Uint8Array(encoded);
    // A replay still sending an older snapshot must not evict the current version.
    if (!hit || hit.version < entry.version) cache.set(uid, { version: entry.version, bytes });
    return bytes;
  }

  /** The bytes of a deletion (the pod's identity only), with the pod's uid fault if it has one. */
  deletion(uid: string, identity: PodTree): Uint8Array {
    return this.faults ? this.faults.encode(uid, identity, true) : encodePod(identity);
  }

  /** Drops the encodings of a pod that left the store. */
  forget(uid: string): void {
    this.full.delete(uid);
    for (const cache of this.masked.values()) cache.delete(uid);
  }

  private maskCache(mask: FieldMask): Map<string, Cached> {
    const key = mask.paths.join(',');
    let cache = this.masked.get(key);
    if (cache) {
      // Most recently used last, so the oldest mask is the one evicted.
      this.masked.delete(key);
    } else {
      cache = new Map();
      if (this.masked.size >= MASKS_KEPT) this.masked.delete(this.masked.keys().next().value!);
    }
    this.masked.set(key, cache);
    return cache;
  }
}
