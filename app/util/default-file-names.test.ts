import { describe, expect, it } from 'vitest';
import { exportFileName, recordingFileName } from './default-file-names';

const at = new Date('2026-11-27T23:45:12.345Z');

describe('default file names', () => {
  it('name the node, the time and what the file holds; what a file name should not hold becomes _', () => {
    expect(exportFileName('worker-1', '.json', at)).toBe('worker-1-2026-11-27T234512Z-pods.json');
    expect(exportFileName('unix:/tmp/ns sim.sock', '.yaml', at)).toBe('unix_tmp_ns_sim.sock-2026-11-27T234512Z-pods.yaml');
    expect(recordingFileName('edge 7/prod', at)).toBe('edge_7_prod-2026-11-27T234512Z.recording.ndjson');
  });

  it('leave no separator at either end of the node, and name a node whose label has nothing usable', () => {
    expect(exportFileName('Demo node (simulated)', '.ndjson', at)).toBe('Demo_node_simulated-2026-11-27T234512Z-pods.ndjson');
    expect(recordingFileName('…', at)).toBe('node-2026-11-27T234512Z.recording.ndjson');
  });
});
