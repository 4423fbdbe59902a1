/**
 * The app core's mask presets on the Node side: built-in ones and the user's, saved in the state folder
 * (plugged into the core as its PresetStore, as nodes.json is). A preset file that cannot be read is never
 * written over: saving waits until the user repairs or removes it.
 */
import { ContractError } from '../contract';
import { whyCannotWrite } from '../fs/write-error';
import type { PresetStore } from '../core/core-types';
import { BUILT_IN_PRESETS, type MaskPreset } from '../mask/mask-presets';
import { loadSavedPresets, presetNameProblem, savedPresetsPath, savePresets } from './saved-presets';

export interface OpenedPresetStore extends PresetStore {
  /** What went wrong reading the saved presets, for the app's notices; undefined when nothing did. */
  readonly problem?: { message: string; nextStep: string };
}

export async function openPresetStore(stateDir: string): Promise<OpenedPresetStore> {
  let saved: MaskPreset[] = [];
  let unreadable: string | null = null;
  let problem: OpenedPresetStore['problem'];
  try {
    const loaded = await loadSavedPresets(stateDir);
    saved = loaded.presets;
    if (loaded.problems.length) {
      problem = { message: `Some saved mask presets were left out: ${loaded.problems.join('; ')}.`, nextStep: 'Save them again from the mask builder.' };
    }
  } catch (err) {
    unreadable = (err as Error).message;
    problem = {
      message: `Your saved mask presets could not be read (${unreadable}); the built-in ones still work, and none will be saved over that file.`,
      nextStep: `Repair or remove ${savedPresetsPath(stateDir)}, then restart Nodescope.`,
    };
  }
  const all = () => [...BUILT_IN_PRESETS, ...saved];

  const store = async (next: MaskPreset[]) => {
    if (unreadable !== null) {
      throw new ContractError('save-failed', `Presets are not saved while ${savedPresetsPath(stateDir)} cannot be read: ${unreadable}.`, 'Repair or remove that file, then restart Nodescope.');
    }
    try {
      await savePresets(stateDir, next);
    } catch (err) {
      const why = whyCannotWrite(err) ?? (err as Error).message;
      throw new ContractError('save-failed', `Could not save the presets to ${savedPresetsPath(stateDir)}: ${why}.`, "Free up space or fix the folder's permissions, then try again.");
    }
    saved = next;
    return all();
  };

  return {
    ...(problem ? { problem } : {}),
    all,
    async save(name, check) {
      const others = saved.filter((p) => p.name !== name);
      const problem = presetNameProblem(name, others);
      if (problem) throw new ContractError('invalid-input', `Cannot save the preset: ${problem}.`, 'Choose another name.');
      if (!check.ok) throw new ContractError('invalid-input', `Cannot save the preset: ${check.error}`, 'Fix the mask, then save it again.');
      if (check.paths.length === 0) throw new ContractError('invalid-input', 'Cannot save an empty preset.', 'Tick at least one field.');
      return store([...others, { name, paths: check.paths, description: 'saved', builtIn: false }].sort((a, b) => a.name.localeCompare(b.name)));
    },
    async remove(name) {
      if (!saved.some((p) => p.name === name)) throw new ContractError('not-found', `There is no saved preset "${name}".`, 'Built-in presets cannot be deleted.');
      return store(saved.filter((p) => p.name !== name));
    },
  };
}
