import { ContractError } from '../contract';
import { decodeStored } from '../pod/stored-pod';
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
  | 'mask.previewCancel'
  | 'mask.presets'
  | 'mask.savePreset'
  | 'mask.deletePreset'
> {
  const { options, recordOf, presets, inSlices } = core;
  /** The mask preview under way per asker (a mask builder). */
  const previews = new Map<string, AbortController>();
  const savedPresets = (): PresetStore => {
    if (options.presets) return options.presets;
    throw new ContractError('not-implemented', 'Mask presets cannot be saved here.', 'Save presets in the Nodescope app.');
  };
  return {
    'mask.validate': ({ mask }) => checkMask(mask, presets()),
    'mask.preview': async ({ nodeId, mask, uid, asker }) => {
      const record = recordOf(nodeId);
      const check = checkMask(mask, presets());
      if (!check.ok) return check;
      const parsed = maskOf(mask, presets());
      if (!parsed) throw new ContractError('invalid-input', 'Give a field mask to preview.', 'Tick fields in the tree or type paths, e.g. metadata.name,status.phase.');
      // The pods as they are now; each is decoded as the preview reaches it.
      const pods = [...record.pods.values()].map((e) => e.pod);
      const sample = (uid ? record.pods.get(uid)?.pod : undefined) ?? pods[0];
      // A file's pods are whole whatever mask it is shown through; a node's were fetched with its mask.
      const steps = maskPreviewSteps(pods, parsed, sample && decodeStored(sample).pod, record.offline ? '' : record.info.mask);
      // The user typing a mask asks again and again: only the latest of an asker's previews goes on.
      const work = new AbortController();
      if (asker) {
        previews.get(asker)?.abort(new ContractError('cancelled', 'A newer preview of the mask replaced this one.', 'Nothing to do: the newer preview answers.'));
        previews.set(asker, work);
      }
      try {
        return await inSlices(steps, work);
      } finally {
        if (asker && previews.get(asker) === work) previews.delete(asker);
      }
    },
    'mask.previewCancel': ({ asker }) => {
      previews.get(asker)?.abort(new ContractError('cancelled', 'The mask builder that asked for this preview was closed.', 'Nothing to do.'));
      return {};
    },
    'mask.presets': () => presets(),
    'mask.savePreset': ({ name, mask }) => savedPresets().save(name, checkMask(mask, presets())),
    'mask.deletePreset': ({ name }) => savedPresets().remove(name),
  };
}
