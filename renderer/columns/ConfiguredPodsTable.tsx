import { useCallback, useMemo } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { ColumnLayout } from '../../app/contract/table-views';
import { ROW_FIELD_SOURCES, unselectedFields } from '../../app/pod/view/pod-field-sources';
import { PodsTable, type PodsTableProps } from '../components/PodsTable';
import type { ParsedFilter } from '../../app/pod/view/filter-language';
import { noMatchText } from '../../app/pod/view/mask-blind-terms';
import type { AppModel } from '../state/app-model';
import { chosenColumns, emptyColumns, maskLeavesOut } from './column-layout';
import { useFieldValues } from './use-field-values';

/** What the wrapper works out itself from the node and the model. */
type Derived = 'chosen' | 'fieldsOf' | 'fieldLeftOut' | 'onDrawnRows' | 'notSelected' | 'mask' | 'totalCount' | 'changedAt' | 'lastChange' | 'emptyText';

/**
 * One node's pods table with the user's columns: their order and choice, columns of any pod field (read
 * for the rows on screen), and the columns no row in view has data for (CPU, memory and probes on a
 * node that gives none) hidden unless the user asked for them.
 */
export function ConfiguredPodsTable(props: Omit<PodsTableProps, Derived> & { model: AppModel; node: NodeInfo; layout: ColumnLayout; filter: ParsedFilter }) {
  const { model, node, layout, filter, ...table } = props;
  const total = model.pods.count(node.id);
  const { maskPaths } = node;
  const maskKey = maskPaths.join(',');
  const notSelected = useMemo(() => new Set(unselectedFields(ROW_FIELD_SOURCES, maskPaths)), [maskKey]);
  const chosen = useMemo(() => chosenColumns(layout, emptyColumns(props.noMetrics)), [layout, props.noMetrics]);
  const paths = chosen.flatMap((c) => (c.path ? [c.path] : []));
  const leftOut = useCallback((path: string) => maskLeavesOut(maskPaths, path), [maskKey]);
  const rowOf = useCallback((uid: string) => model.pods.get(node.id, uid), [model, node.id]);
  const sourceOf = useCallback((uid: string) => ({ nodeId: node.id, uid }), [node.id]);
  const { fieldsOf, onDrawnRows } = useFieldValues({ bridge: model.bridge, paths, sourceOf, leftOut: (_, path) => leftOut(path), rowOf, maskKey: `${node.id}|${maskKey}` });
  return (
    <PodsTable
      {...table}
      notSelected={notSelected}
      mask={node.mask}
      totalCount={total}
      // With no row shown, why: a mask that leaves out a field the filter reads is said, not "no match".
      emptyText={total > 0 ? noMatchText(filter, node.maskPaths) : 'No pods on this node.'}
      changedAt={(uid) => model.pods.changedAt(node.id, uid)}
      lastChange={(uid) => model.pods.lastChange(node.id, uid)}
      chosen={chosen}
      fieldsOf={fieldsOf}
      fieldLeftOut={leftOut}
      onDrawnRows={onDrawnRows}
    />
  );
}
