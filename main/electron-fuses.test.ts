// The fuses of the packaged app, as electron-builder applies them: our electron-builder.yml is loaded
// and validated by electron-builder itself, turned into a fuse configuration by its packager, and
// flipped with @electron/fuses into a stand-in binary carrying Electron's fuse wire (Electron's own
// binary cannot be downloaded here). What is read back is what the shipped app would enforce.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<{ electronFuses?: unknown }>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const { PlatformPackager } = require('app-builder-lib') as { PlatformPackager: { prototype: { generateFuseConfig(fuses: unknown): Promise<object> } } };
const fuses = require('@electron/fuses') as {
  flipFuses(path: string, config: object): Promise<number>;
  getCurrentFuseWire(path: string): Promise<Record<number, number>>;
  FuseV1Options: Record<string, number>;
};

const projectRoot = resolve(import.meta.dirname, '..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const [OFF, ON] = ['0'.charCodeAt(0), '1'.charCodeAt(0)];

/** A file with Electron's fuse wire (version 1, eight fuses) set to Electron's defaults. */
function standInElectron(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ns-fuses-')), 'nodescope');
  // RunAsNode, CookieEncryption, NodeOptions, NodeCliInspect, AsarIntegrity, OnlyLoadAppFromAsar, BrowserV8Snapshot, FileProtocolPrivileges
  const defaults = '10110001';
  writeFileSync(path, Buffer.concat([Buffer.from('\x7fELF...code...'), Buffer.from(SENTINEL), Buffer.from([1, defaults.length]), Buffer.from(defaults), Buffer.from('...more code')]));
  return path;
}

describe('Electron fuses of the packaged app', () => {
  it('turn off Node entry points and debugging, and turn on asar-only loading with integrity checks', async () => {
    const config = await getConfig(projectRoot, null, null);
    await validateConfiguration(config, new DebugLogger(false));
    const binary = standInElectron();
    expect(await fuses.flipFuses(binary, await PlatformPackager.prototype.generateFuseConfig(config.electronFuses))).toBe(1);

    const wire = await fuses.getCurrentFuseWire(binary);
    const state = (name: string) => wire[fuses.FuseV1Options[name]!];
    expect({
      RunAsNode: state('RunAsNode'),
      EnableNodeOptionsEnvironmentVariable: state('EnableNodeOptionsEnvironmentVariable'),
      EnableNodeCliInspectArguments: state('EnableNodeCliInspectArguments'),
      EnableEmbeddedAsarIntegrityValidation: state('EnableEmbeddedAsarIntegrityValidation'),
      OnlyLoadAppFromAsar: state('OnlyLoadAppFromAsar'),
      EnableCookieEncryption: state('EnableCookieEncryption'),
      GrantFileProtocolExtraPrivileges: state('GrantFileProtocolExtraPrivileges'),
    }).toEqual({
      RunAsNode: OFF,
      EnableNodeOptionsEnvironmentVariable: OFF,
      EnableNodeCliInspectArguments: OFF,
      EnableEmbeddedAsarIntegrityValidation: ON,
      OnlyLoadAppFromAsar: ON,
      EnableCookieEncryption: ON,
      GrantFileProtocolExtraPrivileges: OFF,
    });
  });
});
