// A kubelet that takes ListPods and never answers, as a user meets it: each command fails within
// --call-timeout with what happened and what to do (exit 4: the kubelet is there but stuck), and with
// several sources the good ones are printed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUnansweringKubelet, type UnansweringKubelet } from '../kubelet/testing/unanswering-kubelet';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let dir: string;
let hung: UnansweringKubelet;
let good: SimulatedKubelet;
let hungSocket: string;
let goodSocket: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-unanswering-'));
  hungSocket = join(dir, 'hung.sock');
  goodSocket = join(dir, 'good.sock');
  hung = await startUnansweringKubelet(hungSocket);
  good = await startSimulatedKubelet({ socketPath: goodSocket, pods: 4, seed: 5 });
});
afterAll(async () => {
  await hung?.stop();
  await good?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The hung socket's source, known once it is started. */
const HUNG = '<hung>';
const NO_ANSWER = /did not answer ListPods \(shipped API\) on .*hung\.sock: no answer within 0\.5 s/;

describe('a kubelet whose ListPods never answers', () => {
  it.each([
    ['pods', ['pods', HUNG]],
    ['pods -o json', ['pods', HUNG, '-o', 'json']],
    ['pods --mask', ['pods', HUNG, '--mask', 'metadata.name']],
    ['export', ['export', HUNG]],
  ])('%s fails with the reason and the next step, exit 4', async (_name, args) => {
    const r = await nodescope([...args.map((a) => (a === HUNG ? `unix:${hungSocket}` : a)), '--call-timeout', '0.5']);
    expect(r.code, r.stderr).toBe(EXIT.api);
    expect(r.stderr).toMatch(NO_ANSWER);
    expect(r.stderr).toMatch(/next step: .*journalctl -u kubelet.*--call-timeout/);
    expect(r.stdout).toBe('');
  }, 30_000);

  it('pods with several sources prints the good one and names the hung one', async () => {
    const r = await nodescope(['pods', `unix:${hungSocket}`, `unix:${goodSocket}`, '--call-timeout', '0.5']);
    expect(r.code, r.stderr).toBe(EXIT.api);
    expect(r.stderr).toMatch(NO_ANSWER);
    const names = good.store.list().map((p) => (p.metadata as { name: string }).name);
    for (const name of names) expect(r.stdout).toContain(name);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1 + names.length);
  }, 30_000);

  it('compare names the hung source and goes on with the others', async () => {
    const r = await nodescope(['compare', `unix:${hungSocket}`, `unix:${goodSocket}`, `unix:${goodSocket}`, '--call-timeout', '0.5']);
    expect(r.stderr).toMatch(NO_ANSWER);
    expect(r.code, r.stderr).toBe(EXIT.api);
  }, 30_000);
});
