import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMask } from '../core/node-mask';
import { openPresetStore } from './preset-store';
import { BUILT_IN_PRESETS } from '../mask/mask-presets';

const check = (mask: string) => checkMask(mask, BUILT_IN_PRESETS);

describe('saved mask presets', () => {
  it('are kept across restarts as canonical paths, in a file private to the user', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-presets-'));
    const first = await openPresetStore(dir);
    const after = await first.save('triage', check('status.phase, @identity'));
    expect(after.at(-1)).toMatchObject({ name: 'triage', builtIn: false, paths: expect.arrayContaining(['metadata.name', 'status.phase']) });
    expect(statSync(join(dir, 'presets.json')).mode & 0o777).toBe(0o600);
    const again = await openPresetStore(dir);
    expect(again.all().map((p) => p.name)).toEqual([...BUILT_IN_PRESETS.map((p) => p.name), 'triage']);
    expect((await again.remove('triage')).map((p) => p.name)).not.toContain('triage');
    expect((await openPresetStore(dir)).all()).toHaveLength(BUILT_IN_PRESETS.length);
  });

  it('refuses a built-in name, a bad name, a bad mask and an empty one, saying why', async () => {
    const store = await openPresetStore(mkdtempSync(join(tmpdir(), 'ns-presets-')));
    await expect(store.save('identity', check('status.phase'))).rejects.toThrow(/built-in preset/);
    await expect(store.save('Bad Name', check('status.phase'))).rejects.toThrow(/lower-case letters/);
    await expect(store.save('x', check('status.phse'))).rejects.toThrow(/did you mean "phase"/);
    await expect(store.save('x', check(''))).rejects.toThrow(/empty preset/);
  });

  it('never writes over a preset file it could not read, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-presets-'));
    writeFileSync(join(dir, 'presets.json'), '{"version":1,"presets":[');
    const store = await openPresetStore(dir);
    expect(store.problem?.message).toContain('could not be read');
    expect(store.all()).toHaveLength(BUILT_IN_PRESETS.length);
    await expect(store.save('mine', check('status.phase'))).rejects.toThrow(/Repair or remove|cannot be read/);
    expect(readFileSync(join(dir, 'presets.json'), 'utf8')).toBe('{"version":1,"presets":[');
  });
});
