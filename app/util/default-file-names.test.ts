import { describe, expect, it } from 'vitest';
import { exportFileName, recordingFileName } from './default-file-names';

describe('default file names', () => {
  it('name the node, what the file holds and, for a recording, when it began; what a file name should not hold becomes _', () => {
    expect(exportFileName('worker-1', '.json')).toBe('worker-1-pods.json');
    expect(exportFileName('unix:/tmp/ns sim.sock', '.yaml')).toBe('unix_tmp_ns_sim.sock-pods.yaml');
    expect(recordingFileName('edge 7/prod', new Date('2026-11-27T23:45:12.345Z'))).toBe('edge_7_prod-2026-11-27T234512345Z.recording.ndjson');
  });
});
