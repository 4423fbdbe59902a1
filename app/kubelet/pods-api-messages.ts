/**
 * The Pods API's own messages (both shapes), read with wire-reader.ts, so an error says what and where
 * (testing/pods-api-writers.ts writes them for tests, with protobufjs). Pods stay bytes here: they are
 * decoded by app/pod/decode.ts, which keeps what our schema does not know.
 */
import { WireFormatError, WireReader } from '../pod/wire-reader';
import { WIRE_LEN } from '../schema/pod-schema';

export const EVENT_TYPES = ['UNSPECIFIED', 'ADDED', 'MODIFIED', 'DELETED', 'INITIAL_SYNC_COMPLETE'] as const;
export type WatchEventType = (typeof EVENT_TYPES)[number];

/**
 * The `bytes` fields numbered `field` of a message, as views into `bytes` (so each one's byte offset is known);
 * other fields are skipped. Errors say what was read and where (WireFormatError), not just that it failed.
 */
function bytesFields(bytes: Uint8Array, field: number, what: string, varints?: (field: number, value: number) => void): Uint8Array[] {
  const r = new WireReader(bytes);
  const out: Uint8Array[] = [];
  try {
    while (r.pos < bytes.length) {
      const start = r.pos;
      const tag = r.uint32();
      if (tag >>> 3 === 0) throw new WireFormatError(`byte 0x${bytes[start]!.toString(16).padStart(2, '0')} is not a field tag`, start);
      if (tag === ((field << 3) | WIRE_LEN)) {
        const end = r.lengthDelimited();
        out.push(bytes.subarray(r.pos, end));
        r.pos = end;
      } else if ((tag & 7) === 0 && varints) varints(tag >>> 3, Number(r.int64()));
      else r.skip(tag & 7);
    }
  } catch (err) {
    if (err instanceof WireFormatError) throw new WireFormatError(`not a ${what}: ${err.message}`, err.offset);
    throw err;
  }
  return out;
}

/** ListPodsResponse (shipped) and PodListResponse (documented) are the same on the wire: pods = 1. */
export function readListPodsResponse(bytes: Uint8Array): Uint8Array[] {
  return bytesFields(bytes, 1, 'ListPodsResponse');
}

export function readGetPodResponse(bytes: Uint8Array): Uint8Array {
  return bytesFields(bytes, 1, 'GetPodResponse').at(-1) ?? new Uint8Array();
}

export function readWatchPodsEvent(bytes: Uint8Array): { type: WatchEventType; pod: Uint8Array } {
  let type = 0;
  const pods = bytesFields(bytes, 2, 'WatchPodsEvent', (field, value) => {
    if (field === 1) type = value;
  });
  return { type: EVENT_TYPES[type] ?? 'UNSPECIFIED', pod: pods.at(-1) ?? new Uint8Array() };
}
