import { ContractError } from '../contract';
import { decodeStored } from '../pod/stored-pod';
import { wholePods } from './whole-pods';
import type { CoreState } from './core-state';
import type { CoreHandlers, PresetStore } from './core-types';
import { maskPreviewSteps } from './mask-preview';
import { checkMask, maskOf } from './node-mask';

/** Field masks: checking one, previewing it over a node's pods, and the presets. */
export function maskHandlers(
  core: CoreState,
): Pick<
  CoreHandlers,
  | 'mask.validate'
  | 'mask.preview'
  | 'mask.presets'
  | 'mask.savePreset'
  | 'mask.deletePreset'
> {
  const { options, recordOf, presets, inSlices } = core;
  const savedPresets = (): PresetStore => {
    if (options.presets) return options.presets;
    throw new ContractError('not-implemented', 'Mask presets cannot be saved here.', 'Save presets in the Nodescope app.');
  };
  return {
    'mask.validate': ({ mask }) => checkMask(mask, presets()),
    'mask.preview': async ({ nodeId, mask, uid }, call) => {
      const record = recordOf(nodeId);
      const check = checkMask(mask, presets());
      if (!check.ok) return check;
      const parsed = maskOf(mask, presets());
      if (!parsed) throw new ContractError('invalid-input', 'Give a field mask to preview.', 'Tick fields in the tree or type paths, e.g. metadata.name,status.phase.');
      // The pods as they are now (a rows-only node's read from it); each is decoded as the preview reaches it.
      const whole = await wholePods(record, 'all');
      const pods = whole.map((p) => p.pod);
      const sample = (uid ? whole.find((p) => p.uid === uid)?.pod : undefined) ?? pods[0];
      // A file's pods are whole whatever mask it is shown through; a node's were fetched with its mask.
      const steps = maskPreviewSteps(pods, parsed, sample && decodeStored(sample).pod, record.offline ? '' : record.info.mask);
      // The user typing a mask asks again and again: the builder cancels the previews it no longer shows.
      return inSlices(steps, call.signal, (done) => call.progress({ done, total: pods.length }));
    },
    'mask.presets': () => presets(),
    'mask.savePreset': ({ name, mask }) => savedPresets().save(name, checkMask(mask, presets())),
    'mask.deletePreset': ({ name }) => savedPresets().remove(name),
  };
}
