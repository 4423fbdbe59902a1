import { z } from 'zod';

/**
 * The app's settings (settings.get, settings.set, the `settings` event): kept by the host in settings.json
 * in the state folder. Each field is optional in the file (absent: the default, which the host works
 * out); what crosses the contract is always complete.
 */

const KIB = 1024;
const UNITS: Record<string, number> = { '': 1, k: KIB, m: KIB ** 2, g: KIB ** 3, t: KIB ** 4 };

/** The smallest memory budget: below it even one busy node's history would go at once. */
export const MIN_MEMORY_BUDGET = 64 * KIB ** 2;
/** The largest: more than any workstation has, so a typo (a T for a G) is caught. */
export const MAX_MEMORY_BUDGET = 4 * KIB ** 4;

/** A size as an operator writes it (`1 GiB`, `512M`, `1.5g`, `2000000`); units are powers of 1024. Throws with what to write. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmgt])(?:i?b)?|b)?\s*$/i.exec(text);
  if (!match) throw new Error(`"${text}" is not a size: write a number and a unit, e.g. 1 GiB, 512 MiB or 2G.`);
  const unit = (match[2] ?? '').toLowerCase();
  return Math.round(Number(match[1]) * UNITS[unit]!);
}

/** A size in the largest binary unit that leaves a whole or one-decimal number: `1 GiB`, `1.5 GiB`, `512 MiB`. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[i]}`;
}

export const MemoryBudgetSchema = z
  .number()
  .int()
  .min(MIN_MEMORY_BUDGET, `The memory budget is at least ${formatSize(MIN_MEMORY_BUDGET)}`)
  .max(MAX_MEMORY_BUDGET, `The memory budget is at most ${formatSize(MAX_MEMORY_BUDGET)}`);

export const SettingsSchema = z.object({
  /**
   * Bytes the whole app may hold of pods: every source's current pods, their earlier versions and the kept
   * ends of crash logs. Past it earlier versions go first, oldest first across sources, then crash logs.
   */
  memoryBudget: MemoryBudgetSchema,
  /**
   * Above this many nodes open (live sources, not files), a node connecting keeps its pods' rows and digests
   * only, and a pod's whole object is read from the node when it is opened (docs/app.md, "Rows-only nodes").
   */
  rowsOnlyAbove: z.number().int('Keep rows only above a whole number of nodes').min(0, 'Keep rows only above 0 nodes or more'),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** What the app holds of pods now (memory.usage), against its budget: estimated bytes. */
export const MemoryUsageSchema = z.object({ held: z.number().int().min(0), budget: z.number().int().min(0) });
export type MemoryUsage = z.infer<typeof MemoryUsageSchema>;

/** What settings.set takes: the fields to change; the others stay. */
export const SettingsChangeSchema = SettingsSchema.partial().strict();
export type SettingsChange = z.infer<typeof SettingsChangeSchema>;

/**
 * Rows only above 200 nodes: a node of 110 pods holds ~0.33 MB of pod bytes, more with their history: ~70 MB
 * at 200 nodes, which a desktop app can spare, against ~330 MB at 1,000. A fleet that size is looked at as
 * rows and a matrix, one pod opened at a time, which a GetPod answers in a round trip.
 */
export const DEFAULT_ROWS_ONLY_ABOVE = 200;

/**
 * The settings where none is set. The memory budget: 1 GiB, the history of a hundred busy nodes or a
 * thousand nodes' current pods, and what a workstation running a browser and an IDE beside Nodescope can
 * still spare; the host lowers it to a quarter of a small machine's memory (app/host/settings-store.ts).
 */
export const DEFAULT_SETTINGS: Settings = { memoryBudget: KIB ** 3, rowsOnlyAbove: DEFAULT_ROWS_ONLY_ABOVE };
