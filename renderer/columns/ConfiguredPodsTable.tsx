import { useCallback, useMemo } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodRow } from '../../app/contract/pods';
import type { ColumnLayout } from '../../app/contract/table-views';
import { keepsAnyOf } from '../../app/mask/mask-coverage';
import { PodsTable, type PodsTableProps } from '../components/PodsTable';
import { chosenColumns } from './column-layout';
import { useFieldValues } from './use-field-values';

const NO_METRICS: ReadonlySet<string> = new Set(['cpu', 'memory', 'probes']);
const NONE: ReadonlySet<string> = new Set();

/**
 * One node's pods table with the user's columns: their order and choice, columns of any pod field (read
 * for the rows on screen), and the columns no row in view has data for (CPU, memory and probes on a
 * node that gives none) hidden unless the user asked for them.
 */
export function ConfiguredPodsTable(
  props: Omit<PodsTableProps, 'chosen' | 'fieldsOf' | 'fieldLeftOut' | 'onDrawnRows'> & {
    bridge: Bridge;
    nodeId: string;
    maskPaths: readonly string[];
    layout: ColumnLayout;
    rowOf: (uid: string) => PodRow | undefined;
  },
) {
  const { bridge, nodeId, maskPaths, layout, rowOf, ...table } = props;
  const chosen = useMemo(() => chosenColumns(layout, props.noMetrics ? NO_METRICS : NONE), [layout, props.noMetrics]);
  const paths = chosen.flatMap((c) => (c.path ? [c.path] : []));
  const maskKey = maskPaths.join(',');
  const leftOut = useCallback((path: string) => maskPaths.length > 0 && !keepsAnyOf(maskPaths, path), [maskKey]);
  const { fieldsOf, onDrawnRows } = useFieldValues({ bridge, nodeId, paths, leftOut, rowOf, maskKey });
  return <PodsTable {...table} chosen={chosen} fieldsOf={fieldsOf} fieldLeftOut={leftOut} onDrawnRows={onDrawnRows} />;
}
