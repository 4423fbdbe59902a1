/**
 * The mask presets a user saved, kept across restarts in presets.json beside nodes.json (written
 * atomically, private to the user). Each is stored as its canonical paths, so it means the same
 * thing however it was typed; a hand-edited entry that no longer parses is skipped, never the file.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-file';
import { readSmallFile, readSmallFileSync, type SmallFileLimit } from '../fs/read-small-file';
import { FieldMaskError, parseFieldMask } from '../mask/field-mask';
import { BUILT_IN_PRESETS, PRESET_NAME, type MaskPreset } from '../mask/mask-presets';

const SavedPresetsSchema = z.object({
  version: z.literal(1),
  presets: z.array(z.object({ name: z.string(), mask: z.string() })),
});

/** Hundreds of presets stay far below this; more is not a list Nodescope wrote. */
const PRESET_LIST: SmallFileLimit = { what: 'preset list', maxBytes: 16 << 20 };

export function savedPresetsPath(stateDir: string): string {
  return join(stateDir, 'presets.json');
}

export interface LoadedPresets {
  presets: MaskPreset[];
  /** Entries left out, each with why. */
  problems: string[];
}

/** The saved presets; none when the file does not exist. Throws when the file is not a preset list. */
export async function loadSavedPresets(stateDir: string): Promise<LoadedPresets> {
  const path = savedPresetsPath(stateDir);
  return parseSavedPresets(await readSmallFile(path, PRESET_LIST).then((b) => b.toString('utf8'), noFile), path);
}

/** The same, for the command line, which resolves `--mask @NAME` before anything else runs. */
export function loadSavedPresetsSync(stateDir: string): LoadedPresets {
  const path = savedPresetsPath(stateDir);
  let text: string | null;
  try {
    text = readSmallFileSync(path, PRESET_LIST).toString('utf8');
  } catch (err) {
    text = noFile(err);
  }
  return parseSavedPresets(text, path);
}

function noFile(err: unknown): null {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw err;
}

function parseSavedPresets(text: string | null, path: string): LoadedPresets {
  if (text === null) return { presets: [], problems: [] };
  let parsed;
  try {
    parsed = SavedPresetsSchema.safeParse(JSON.parse(text));
  } catch (err) {
    throw new Error(`${path} is not a valid Nodescope preset list: it is not JSON (${(err as Error).message})`);
  }
  if (!parsed.success) throw new Error(`${path} is not a valid Nodescope preset list: ${parsed.error.issues[0]!.message}`);
  const presets: MaskPreset[] = [];
  const problems: string[] = [];
  for (const { name, mask } of parsed.data.presets) {
    const problem = presetNameProblem(name, presets);
    if (problem) {
      problems.push(`preset "${name}": ${problem}`);
      continue;
    }
    try {
      presets.push({ name, paths: [...parseFieldMask(mask).paths], description: 'saved', builtIn: false });
    } catch (err) {
      if (!(err instanceof FieldMaskError)) throw err;
      problems.push(`preset "${name}": ${err.message}`);
    }
  }
  return { presets, problems };
}

/** Why `name` cannot name a new saved preset (beside `saved`), or undefined when it can. */
export function presetNameProblem(name: string, saved: readonly MaskPreset[]): string | undefined {
  if (!PRESET_NAME.test(name)) return 'a preset name is 1 to 40 lower-case letters, digits, - or _, starting with a letter';
  if (BUILT_IN_PRESETS.some((p) => p.name === name)) return `"${name}" is a built-in preset; choose another name`;
  if (saved.some((p) => p.name === name)) return `there is already a preset "${name}"`;
  return undefined;
}

export async function savePresets(stateDir: string, presets: readonly MaskPreset[]): Promise<void> {
  const entries = presets.filter((p) => !p.builtIn).map((p) => ({ name: p.name, mask: p.paths.join(',') }));
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(savedPresetsPath(stateDir), `${JSON.stringify({ version: 1, presets: entries }, null, 2)}\n`);
}
