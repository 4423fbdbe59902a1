// `nodescope sim --log-dir`: the simulator writes its pods' logs where `nodescope logs` finds them.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'ns-sim-logs-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('nodescope sim --log-dir', () => {
  it('writes the pods\' logs in the /var/log/pods layout until stopped, readable with nodescope logs', async () => {
    const socket = join(dir, 'pods.sock');
    const logDir = join(dir, 'pods');
    const sim = await nodescope(['sim', '--socket', socket, '--pods', '4', '--log-dir', logDir], { until: (out) => out.includes('Stop with Ctrl-C.') });
    expect(sim.stdout).toContain(`container logs under ${logDir} (/var/log/pods layout)`);
    const pods = await readdir(logDir);
    expect(pods.length).toBeGreaterThan(0);
    const [ns, name] = pods[0]!.split('_');
    const r = await nodescope(['logs', '--local', socket, '--log-dir', logDir, `${ns}/${name}`, '--all-containers', '--tail', '2']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout.length).toBeGreaterThan(0);
  });

  it('refuses --log-max-size without --log-dir', async () => {
    const r = await nodescope(['sim', '--socket', join(dir, 'x.sock'), '--log-max-size', '4096']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('--log-max-size needs --log-dir');
  });
});
