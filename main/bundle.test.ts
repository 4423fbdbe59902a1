import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleMain } from './bundle';

describe('bundleMain', () => {
  it('builds an ESM main and a self-contained CommonJS preload that needs nothing but electron', async () => {
    // Its own output dir, so a parallel npm start building dist/main cannot interfere.
    const out = await bundleMain(mkdtempSync(join(tmpdir(), 'ns-bundle-')));
    const preload = readFileSync(out.preload, 'utf8');
    // A sandboxed preload may require only a few built-ins; everything else must be inlined.
    const required = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).toContain('exposeInMainWorld');
    // It sends and listens on the contract's own channels only, never on one the page names.
    const channels = [...preload.matchAll(/ipcRenderer\.(?:send|on|removeListener|invoke)\((\w+)[,)]/g)].map((m) => m[1]!);
    expect(channels.length).toBeGreaterThan(0);
    for (const channel of channels) expect(preload).toMatch(new RegExp(`\\b${channel} = "nodescope(-host)?:[\\w:-]+"`));

    const main = readFileSync(out.main, 'utf8');
    expect(main).toMatch(/^import .* from "electron";$/m);
    // ssh2's native module and grpc stay in node_modules, where electron-builder rebuilds/unpacks them.
    expect(main).toMatch(/from "ssh2"/);
    expect(main).toMatch(/from "@grpc\/grpc-js"/);
    expect(main).toContain('nodescope:');
    // The YAML reader's worker, beside main.mjs where read-pod-yaml-off-thread.ts starts it.
    expect(readFileSync(join(dirname(out.main), 'yaml-pod-worker.mjs'), 'utf8')).toContain('parentPort');
  }, 60_000);
});
