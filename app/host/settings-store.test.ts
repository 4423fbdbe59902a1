import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ROWS_ONLY_ABOVE, MIN_MEMORY_BUDGET, type MemoryUsage, type Settings } from '../contract';
import { createHost, type Host } from './host';
import { defaultMemoryBudget, settingsPath } from './settings-store';
import { driveHost } from './testing/drive-host';

const open: Host[] = [];
afterEach(async () => {
  for (const host of open.splice(0)) await host.close();
});

async function start(stateDir: string, settings?: Partial<Settings>) {
  const host = await createHost({ mode: 'browser', stateDir, demo: false, ...(settings ? { settings } : {}) });
  open.push(host);
  return { host, ...driveHost(host) };
}
const newStateDir = () => mkdtempSync(join(tmpdir(), 'ns-settings-'));
const GIB = 1024 ** 3;

describe('the app settings', () => {
  it('default to a budget a workstation can spare: 1 GiB, less on a small machine, never below the least', () => {
    expect(defaultMemoryBudget(32 * GIB)).toBe(GIB);
    expect(defaultMemoryBudget(2 * GIB)).toBe(GIB / 2);
    expect(defaultMemoryBudget(64 * 1024 ** 2)).toBe(MIN_MEMORY_BUDGET);
  });

  it('are saved in a file private to the user, kept across a restart, and told to every window', async () => {
    const dir = newStateDir();
    const first = await start(dir);
    expect(await first.call<Settings>('settings.get')).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: defaultMemoryBudget() });
    expect(await first.call<Settings>('settings.set', { memoryBudget: 2 * GIB })).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: 2 * GIB });
    expect(first.events).toContainEqual({ name: 'settings', payload: { rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: 2 * GIB } });
    expect(await first.call<MemoryUsage>('memory.usage')).toEqual({ held: 0, budget: 2 * GIB });
    await first.host.close();
    expect(statSync(settingsPath(dir)).mode & 0o077).toBe(0);

    const second = await start(dir);
    expect(await second.call<Settings>('settings.get')).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: 2 * GIB });
  });

  it("keep a newer Nodescope's settings they do not know", async () => {
    const dir = newStateDir();
    writeFileSync(settingsPath(dir), JSON.stringify({ version: 1, rowsOnlyAbove: 200 }));
    const app = await start(dir);
    await app.call('settings.set', { memoryBudget: GIB });
    expect(JSON.parse(readFileSync(settingsPath(dir), 'utf8'))).toEqual({ version: 1, rowsOnlyAbove: 200, memoryBudget: GIB });
  });

  it('take a budget given for this run over the saved one, without saving it, until the user sets one', async () => {
    const dir = newStateDir();
    writeFileSync(settingsPath(dir), JSON.stringify({ version: 1, memoryBudget: 2 * GIB }));
    const app = await start(dir, { memoryBudget: 256 * 1024 ** 2 });
    expect(await app.call<Settings>('settings.get')).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: 256 * 1024 ** 2 });
    expect((await app.call<MemoryUsage>('memory.usage')).budget).toBe(256 * 1024 ** 2);
    expect(JSON.parse(readFileSync(settingsPath(dir), 'utf8')).memoryBudget).toBe(2 * GIB);
    expect(await app.call<Settings>('settings.set', { memoryBudget: 3 * GIB })).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: 3 * GIB });
    expect(await app.call<Settings>('settings.get')).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: 3 * GIB });
  });

  it('never write over a file they could not read, and say what to do', async () => {
    const dir = newStateDir();
    writeFileSync(settingsPath(dir), JSON.stringify({ version: 1, memoryBudget: 12 }));
    const app = await start(dir);
    expect(await app.call<Settings>('settings.get')).toEqual({ rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE, memoryBudget: defaultMemoryBudget() });
    await expect(app.call('settings.set', { memoryBudget: GIB })).rejects.toThrow(/not saved while .*settings\.json cannot be read: .*at least 64 MiB at memoryBudget/);
    const notices = await app.call<{ message: string; nextStep: string }[]>('notices.list');
    expect(notices.find((n) => n.message.includes('settings could not be read'))?.nextStep).toMatch(/Repair or remove .*settings\.json/);
    expect(readFileSync(settingsPath(dir), 'utf8')).toBe(JSON.stringify({ version: 1, memoryBudget: 12 }));
  });
});
