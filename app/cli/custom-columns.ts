/**
 * kubectl's `-o custom-columns=HEADER:PATH,...`: one column per pair, each cell the values PATH reaches
 * (joined with commas), `<none>` when it reaches none, `<masked>` when the --mask left that field out.
 */
import type { FieldMask } from '../mask/field-mask';
import { keepsAnyOf } from '../mask/mask-coverage';
import type { PodTree } from '../pod/pod-tree';
import { evalJsonPath, maskPathOf, parseJsonPath, valueText, type PathStep } from './json-path';
import { UsageError } from './usage-error';
import { NOT_SELECTED } from './pod-table';

export const CUSTOM_COLUMNS = 'custom-columns=';

export interface CustomColumn {
  header: string;
  path: PathStep[];
}

/** Parses what follows `-o custom-columns=`. */
export function parseCustomColumns(spec: string): CustomColumn[] {
  if (spec.trim() === '') throw new UsageError('-o custom-columns= needs columns, e.g. -o custom-columns=NAME:.metadata.name,IP:.status.podIP');
  return spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon <= 0) throw new UsageError(`bad -o custom-columns column '${part}': write HEADER:PATH, e.g. NAME:.metadata.name`);
    return { header: part.slice(0, colon), path: parseJsonPath(part.slice(colon + 1), `-o custom-columns column '${part}'`) };
  });
}

/** The header, then a row per pod. */
export function customColumnsRows(pods: readonly PodTree[], columns: readonly CustomColumn[], mask?: FieldMask): string[][] {
  const masked = columns.map((c) => mask !== undefined && !keepsAnyOf(mask.paths, maskPathOf(c.path)));
  const rows = pods.map((pod) =>
    columns.map((c, i) => {
      if (masked[i]) return NOT_SELECTED;
      const values = evalJsonPath(pod, c.path);
      return values.length ? values.map(valueText).join(',') : '<none>';
    }),
  );
  return [columns.map((c) => c.header), ...rows];
}
