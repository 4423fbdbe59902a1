import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleRequest, type NodeInfo } from '../app/contract';
import { createHost, type Host } from '../app/host/host';
import { podToNdjsonLine } from '../app/pod/kubectl-json';
import { PodGenerator } from '../app/sim/pod-generator';
import { answerDroppedFiles } from './dropped-files';

const origin = 'nodescope://app';
const page = 'nodescope://app/index.html';
let dir: string;
let inspector: Host;
let dropped: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ns-dropped-'));
  dropped = join(dir, 'dropped.ndjson');
  writeFileSync(dropped, `${podToNdjsonLine(new PodGenerator({ seed: 2, nodeName: 'n' }).existing(Date.now()))}\n`);
  inspector = await createHost({ mode: 'electron', stateDir: dir, demo: false, pickOpenPaths: async () => [], openLink: () => ({ close: async () => {} }) });
});
afterAll(() => inspector.close());

const opened = async () => ((await handleRequest(inspector.handlers, 'nodes.list', {})) as { ok: true; value: NodeInfo[] }).value.length;

describe('files dropped on the Electron window', () => {
  it('refuses frames that are not our own pages and paths that are not absolute, opening nothing', async () => {
    for (const frame of ['https://example.com/', '']) {
      expect(await answerDroppedFiles(inspector.openDropped, origin, frame, [dropped])).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    for (const paths of [['dropped.ndjson'], [], 'x', undefined]) {
      expect(await answerDroppedFiles(inspector.openDropped, origin, page, paths)).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
    expect(await opened()).toBe(0);
  });

  it('opens a dropped file, which the page may then name again (undo), as sources.open answers', async () => {
    const result = await answerDroppedFiles(inspector.openDropped, origin, page, [dropped]);
    expect(result).toMatchObject({ ok: true, value: { status: 'opened', nodes: [{ spec: { kind: 'snapshot', file: dropped }, podCount: 1 }] } });
    expect(await handleRequest(inspector.handlers, 'sources.open', { paths: [dropped] })).toMatchObject({ ok: true, value: { status: 'opened' } });
  });
});
