/**
 * The app's settings (app/contract/settings.ts), kept across restarts in settings.json beside nodes.json
 * (written atomically, private to the user). The file holds only what the user set; the rest is the
 * default. Fields this version does not know (a newer Nodescope's) are written back as they were read. A
 * file that cannot be read is never written over: the app starts with the defaults and says what to do.
 */
import { mkdir } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { ContractError } from '../contract/errors';
import { DEFAULT_SETTINGS, MIN_MEMORY_BUDGET, SettingsSchema, type Settings, type SettingsChange } from '../contract/settings';
import { writeFileAtomic } from '../fs/atomic-file';
import { readSmallFile, type SmallFileLimit } from '../fs/read-small-file';
import { whyCannotWrite } from '../fs/write-error';

/** A few settings stay far below this; more is not a file Nodescope wrote. */
const LIMIT: SmallFileLimit = { what: 'settings file', maxBytes: 1 << 20 };

/** What the file holds: the fields set, each checked as settings.set checks it; others kept as they are. */
const StoredSettingsSchema = SettingsSchema.partial().loose();

export const settingsPath = (stateDir: string) => join(stateDir, 'settings.json');

/**
 * DEFAULT_SETTINGS' budget, or a quarter of the machine's memory on a small one (the rest is the system's,
 * the browser's and the IDE's); never below the least budget that keeps a busy node's history at all.
 */
export function defaultMemoryBudget(machineBytes = totalmem()): number {
  return Math.max(MIN_MEMORY_BUDGET, Math.min(DEFAULT_SETTINGS.memoryBudget, Math.floor(machineBytes / 4)));
}

export const defaultSettings = (): Settings => ({ ...DEFAULT_SETTINGS, memoryBudget: defaultMemoryBudget() });

export interface SettingsStore {
  /** Every setting: the one given for this run, else the one saved, else the default. */
  get(): Settings;
  /** Saves the fields given (the others stay) and answers all settings; a setting given for this run gives way to it. */
  set(change: SettingsChange): Promise<Settings>;
  /** What went wrong reading the file, for the app's notices; undefined when nothing did. */
  readonly problem?: { message: string; nextStep: string };
}

export interface SettingsStoreOptions {
  defaults?: Settings;
  /** Settings given for this run only (`nodescope ui --memory-budget`), not saved. */
  forThisRun?: SettingsChange;
}

export async function openSettingsStore(stateDir: string, options: SettingsStoreOptions = {}): Promise<SettingsStore> {
  const path = settingsPath(stateDir);
  const defaults = options.defaults ?? defaultSettings();
  let forThisRun: SettingsChange = { ...options.forThisRun };
  let saved: Record<string, unknown> = {};
  let unreadable: string | null = null;
  try {
    const text = (await readSmallFile(path, LIMIT)).toString('utf8');
    const parsed = StoredSettingsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`not a Nodescope settings file: ${parsed.error.issues[0]!.message} at ${parsed.error.issues[0]!.path.join('.')}`);
    saved = parsed.data;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') unreadable = (err as Error).message;
  }
  const current = (): Settings => SettingsSchema.parse({ ...defaults, ...saved, ...forThisRun });
  return {
    ...(unreadable !== null
      ? { problem: { message: `Your settings could not be read (${unreadable}); the defaults are used, and nothing will be saved over that file.`, nextStep: `Repair or remove ${path}, then restart Nodescope.` } }
      : {}),
    get: current,
    async set(change) {
      if (unreadable !== null) {
        throw new ContractError('save-failed', `Settings are not saved while ${path} cannot be read: ${unreadable}.`, 'Repair or remove that file, then restart Nodescope.');
      }
      const next = { ...saved, ...change };
      try {
        await mkdir(stateDir, { recursive: true, mode: 0o700 });
        await writeFileAtomic(path, `${JSON.stringify({ ...next, version: 1 }, null, 2)}\n`);
      } catch (err) {
        const why = whyCannotWrite(err) ?? (err as Error).message;
        throw new ContractError('save-failed', `Could not save the settings to ${path}: ${why}.`, "Free up space or fix the folder's permissions, then try again.");
      }
      saved = next;
      forThisRun = Object.fromEntries(Object.entries(forThisRun).filter(([key]) => !(key in change)));
      return current();
    },
  };
}
