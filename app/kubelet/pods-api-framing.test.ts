import { describe, expect, it } from 'vitest';
import { readGetPodResponse, readListPodsResponse, readWatchPodsEvent } from './pods-api-messages';
import { writeListPodsResponse } from './testing/pods-api-writers';
import { podListMessage, singlePodMessage, watchEventMessage } from './pods-api-framing';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
// Lengths around the varint boundaries (1, 2 and 3 length bytes).
const pods = [bytes(1, 1), bytes(127, 2), bytes(128, 3), bytes(16_383, 4), bytes(16_384, 5), bytes(200_000, 6)];

describe('Pods API framing of pre-encoded pods', () => {
  it('frames a pod list exactly as the protobuf schema does', () => {
    expect(Buffer.compare(podListMessage(pods), writeListPodsResponse(pods))).toBe(0);
    expect(readListPodsResponse(podListMessage(pods)).map(hex)).toEqual(pods.map(hex));
    expect(podListMessage([])).toHaveLength(0);
  });

  it('frames single-pod responses that read back as the same pod', () => {
    for (const pod of pods) expect(hex(readGetPodResponse(singlePodMessage(pod)))).toBe(hex(pod));
  });

  it('frames watch events with their type, and no pod field at all when there is none (as Go does)', () => {
    for (const type of ['ADDED', 'MODIFIED', 'DELETED'] as const) {
      for (const pod of pods) {
        const event = readWatchPodsEvent(watchEventMessage(type, pod));
        expect({ type: event.type, pod: hex(event.pod) }).toEqual({ type, pod: hex(pod) });
      }
    }
    expect([...watchEventMessage('INITIAL_SYNC_COMPLETE')]).toEqual([0x08, 0x04]);
    expect(readWatchPodsEvent(watchEventMessage('INITIAL_SYNC_COMPLETE')).type).toBe('INITIAL_SYNC_COMPLETE');
  });
});
