/**
 * Named masks operators think in, written `@NAME` in a mask (`@readiness,metadata.labels`). The
 * built-in ones are fixed here; users save their own (app/host/saved-presets.ts). Browser-safe:
 * the builder shows them and the CLI and the app expand them with the same function.
 */
import { closestNames } from './closest-names';
import { FieldMaskError } from './field-mask-error';
import { parseFieldMask, type FieldMask } from './field-mask';

export interface MaskPreset {
  name: string;
  /** Canonical mask paths. */
  paths: string[];
  /** What it is for, in a few words. */
  description: string;
  builtIn: boolean;
}

const builtIn = (name: string, description: string, paths: string[]): MaskPreset => ({ name, description, paths, builtIn: true });

export const BUILT_IN_PRESETS: readonly MaskPreset[] = [
  builtIn('identity', 'name, namespace, uid, node, owner', ['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.ownerReferences', 'spec.nodeName']),
  builtIn('readiness', 'phase, conditions, container ready/restarts/state', [
    'status.phase',
    'status.conditions',
    'status.containerStatuses.name',
    'status.containerStatuses.ready',
    'status.containerStatuses.restartCount',
    'status.containerStatuses.state',
    'status.initContainerStatuses.name',
    'status.initContainerStatuses.ready',
    'status.initContainerStatuses.restartCount',
    'status.initContainerStatuses.state',
  ]),
  builtIn('images', 'container images, as asked and as running', [
    'spec.containers.name',
    'spec.containers.image',
    'spec.initContainers.name',
    'spec.initContainers.image',
    'status.containerStatuses.name',
    'status.containerStatuses.image',
    'status.containerStatuses.imageID',
  ]),
  builtIn('resources', 'requests, limits, QoS', [
    'spec.containers.name',
    'spec.containers.resources',
    'spec.initContainers.name',
    'spec.initContainers.resources',
    'spec.overhead',
    'status.qosClass',
  ]),
  builtIn('networking', 'IPs, ports, host network', [
    'status.podIP',
    'status.podIPs',
    'status.hostIP',
    'status.hostIPs',
    'spec.containers.name',
    'spec.containers.ports',
    'spec.hostNetwork',
  ]),
  builtIn('scheduling', 'node selector, affinity, tolerations, priority', [
    'spec.nodeSelector',
    'spec.affinity',
    'spec.tolerations',
    'spec.priority',
    'spec.priorityClassName',
  ]),
];

/** A saved preset's name: what can follow `@` in a mask and stay one argument in a shell. */
export const PRESET_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

/**
 * The mask text with every `@NAME` entry replaced by that preset's paths; other entries are kept as
 * written. An unknown name is a FieldMaskError at its position, with the closest names.
 */
export function expandPresets(text: string, presets: readonly MaskPreset[]): string {
  if (!text.includes('@')) return text;
  let start = 0;
  const out: string[] = [];
  for (const entry of text.split(',')) {
    const trimmed = entry.trim();
    if (trimmed.startsWith('@')) {
      const name = trimmed.slice(1);
      const preset = presets.find((p) => p.name === name);
      if (!preset) {
        const at = start + entry.indexOf('@');
        const names = presets.map((p) => p.name);
        const close = closestNames(name, names);
        const hint = close.length ? `did you mean "@${close[0]}"?` : `presets are: ${names.map((n) => `@${n}`).join(', ')}`;
        throw new FieldMaskError(`unknown preset "${trimmed}"; ${hint}`, trimmed, trimmed, at);
      }
      out.push(preset.paths.join(','));
    } else out.push(entry);
    start += entry.length + 1;
  }
  return out.join(',');
}

/**
 * Parses a mask that may name presets. Errors point into the text as typed: the paths written out
 * are checked with each `@NAME` blanked to spaces, so their positions do not move.
 */
export function parseMaskWithPresets(text: string, presets: readonly MaskPreset[]): FieldMask {
  const expanded = expandPresets(text, presets);
  if (expanded === text) return parseFieldMask(text);
  const blanked = text
    .split(',')
    .map((entry) => (entry.trim().startsWith('@') ? ' '.repeat(entry.length) : entry))
    .join(',');
  if (blanked.replace(/[\s,]/g, '') !== '') parseFieldMask(blanked);
  return parseFieldMask(expanded);
}
