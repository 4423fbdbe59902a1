import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { browserTsconfigDrift, checkLayers } from './check-layers';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const trees: string[] = [];
afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A small source tree in a temp dir: path → file text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'nodescope-layers-'));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the layer rule on this project', () => {
  it('holds: browser code reaches no Node built-in, Electron or Node-only package', () => {
    expect(checkLayers(projectRoot).problems).toEqual([]);
    expect(browserTsconfigDrift(projectRoot)).toEqual([]);
  });

  it('follows a real set of files: the renderer’s bridge client, and the real hub the design preview runs', () => {
    const { reached } = checkLayers(projectRoot);
    expect(reached.get('renderer')?.has('renderer/bridge/ws-bridge-client.ts')).toBe(true);
    expect(reached.get('design preview')?.has('app/core/core.ts')).toBe(true);
    expect(reached.get('core')?.has('app/pod/view/pod-row-from-tree.ts')).toBe(true);
    expect(reached.get('app core')?.has('app/core/core.ts')).toBe(true);
    expect(reached.get('app core')?.has('app/pod/decode.ts')).toBe(true);
  });
});

describe('checkLayers', () => {
  it('fails on a browser-safe file importing node:fs, naming the file and the import', () => {
    const root = tree({ 'app/contract/read-file.ts': "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n" });
    expect(checkLayers(root).problems).toEqual(['app/contract/read-file.ts imports node:fs: a Node built-in, in code that runs in the browser']);
  });

  it('fails on the app core importing a Node built-in, directly or through a Node folder it may not import', () => {
    const root = tree({
      'app/core/core.ts': "import { homedir } from 'node:os';\nimport { stateDir } from '../host/state-dir';\nexport const c = [homedir, stateDir];\n",
      'app/host/state-dir.ts': "import { join } from 'node:path';\nexport const stateDir = join('a', 'b');\n",
    });
    expect(checkLayers(root).problems).toEqual([
      'app/core/core.ts imports ../host/state-dir: the app core may not import app/host/ (scripts/layers.ts)',
      'app/core/core.ts imports node:os: a Node built-in, in code that runs in the browser',
      'app/host/state-dir.ts imports node:path: a Node built-in, in code that runs in the browser (reached via app/core/core.ts → app/host/state-dir.ts)',
    ]);
  });

  it('lets the app core name a Node folder’s interfaces (type-only imports carry no code), not load its code', () => {
    const root = tree({
      'app/core/broker.ts': "import type { SshPrompter } from '../ssh/ssh-prompter';\nexport type P = SshPrompter;\n",
      'app/core/link.ts': "export type { SshPrompter } from '../ssh/ssh-prompter';\nimport { CERT } from '../kubelet-rest/cert';\nexport const c = CERT;\n",
      'app/ssh/ssh-prompter.ts': 'export interface SshPrompter { ask(): void }\n',
      'app/kubelet-rest/cert.ts': "export const CERT = 'cert';\n",
    });
    expect(checkLayers(root).problems).toEqual(['app/core/link.ts imports ../kubelet-rest/cert: the app core may not import app/kubelet-rest/ (scripts/layers.ts)']);
  });

  it('follows imports into Node folders and names the chain; Node code not reached from the browser may use Node', () => {
    const root = tree({
      'app/fleet/matrix.ts': "import { home } from '../inspector/home';\nexport const h = home;\n",
      'app/inspector/home.ts': "import { homedir } from 'os';\nexport const home = homedir;\n",
      'app/inspector/state.ts': "import { mkdir } from 'node:fs/promises';\nexport const m = mkdir;\n",
    });
    expect(checkLayers(root).problems).toEqual([
      'app/inspector/home.ts imports os: a Node built-in, in code that runs in the browser (reached via app/fleet/matrix.ts → app/inspector/home.ts)',
    ]);
  });

  it('allows each browser layer only its packages: protobufjs in the pod schema and the design preview, not the renderer', () => {
    const root = tree({
      'app/schema/schema.ts': "import protobuf from 'protobufjs';\nexport const p = protobuf;\n",
      'renderer/dev/preview.ts': "import protobuf from 'protobufjs';\nimport { p } from '../../app/schema/schema';\nexport const q = [protobuf, p];\n",
      'renderer/table.tsx': "import { useState } from 'react';\nimport protobuf from 'protobufjs';\nexport const r = [useState, protobuf];\n",
      'app/mask/connect.ts': "import { Client } from 'ssh2';\nexport const c = Client;\n",
    });
    expect(checkLayers(root).problems).toEqual([
      'app/mask/connect.ts imports ssh2: ssh2 is not a browser package of the core layer (scripts/layers.ts)',
      'renderer/table.tsx imports protobufjs: protobufjs is not a browser package of the renderer layer (scripts/layers.ts)',
    ]);
  });

  it('keeps Electron in main/ and React in renderer/, and leaves tests (which run in Node) alone', () => {
    const root = tree({
      'main/window.ts': "import { BrowserWindow } from 'electron';\nimport { join } from 'node:path';\nexport const w = [BrowserWindow, join];\n",
      'app/cli/open.ts': "import { shell } from 'electron';\nexport const s = shell;\n",
      'app/hub/view.tsx': "import { createRoot } from 'react-dom/client';\nexport const c = createRoot;\n",
      'app/contract/bridge.test.ts': "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n",
    });
    expect(checkLayers(root).problems).toEqual([
      'app/cli/open.ts imports electron: Electron belongs in main/ only',
      'app/hub/view.tsx imports react-dom/client: React belongs in renderer/ only',
    ]);
  });

  it('fails the typecheck step (exit 1) naming the file and import, and passes a clean tree', () => {
    const run = (root: string) =>
      spawnSync(process.execPath, ['bin/run-ts.js', 'scripts/check-layers.ts', root], { cwd: projectRoot, encoding: 'utf8' });
    const bad = run(tree({ 'app/pod/view/disk.ts': "import 'node:fs';\n" }));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('app/pod/view/disk.ts imports node:fs');
    const good = run(tree({ 'app/pod/view/rows.ts': "import { z } from 'zod';\nexport const s = z.string();\n" }));
    expect(good.status).toBe(0);
  });
});
