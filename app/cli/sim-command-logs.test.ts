// `nodescope sim --log-dir`: the simulator writes its pods' logs where `nodescope logs` finds them.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('with --rest-port serves the logs it writes from /containerLogs', async () => {
    const logDir = join(dir, 'rest-pods');
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, 'tok-sim-0123456789', { mode: 0o600 });
    const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/nodescope.js');
    const sim = spawn(process.execPath, [bin, 'sim', '--socket', join(dir, 'rest.sock'), '--pods', '4', '--log-dir', logDir, '--rest-port', '0', '--token-file', tokenFile]);
    try {
      let out = '';
      sim.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await expect.poll(() => out, { timeout: 30_000 }).toContain('Stop with Ctrl-C.');
      const port = Number(/REST API on https:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);
      const podDir = (await readdir(logDir))[0]!;
      const [ns, name] = podDir.split('_');
      const container = (await readdir(join(logDir, podDir)))[0]!;
      const get = (path: string) =>
        new Promise<{ status: number; body: string }>((done, fail) => {
          request({ host: '127.0.0.1', port, path, rejectUnauthorized: false, headers: { Authorization: 'Bearer tok-sim-0123456789' } }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => done({ status: res.statusCode!, body }));
          }).on('error', fail).end();
        });
      const r = await get(`/containerLogs/${ns}/${name}/${container}?tailLines=2`);
      expect(r.status, r.body).toBe(200);
      expect(r.body.split('\n').length).toBeGreaterThanOrEqual(2);
    } finally {
      sim.kill('SIGINT');
    }
  }, 60_000);

  it('refuses --log-max-size without --log-dir', async () => {
    const r = await nodescope(['sim', '--socket', join(dir, 'x.sock'), '--log-max-size', '4096']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('--log-max-size needs --log-dir');
  });
});
