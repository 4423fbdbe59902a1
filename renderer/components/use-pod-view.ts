import { useMemo, useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { PodRow } from '../../app/contract/pods';
import { parseFilter, type ParsedFilter } from '../../app/pod/view/filter-language';
import { descendingFirst, type OrderKey, type SortOrder } from '../filter/sort-rows';
import { useFieldSort } from '../columns/use-field-sort';
import type { AppModel } from '../state/app-model';
import { podMetricsLookup } from '../../app/pod/view/pod-metrics';

/** How the node's pods are shown: the filter typed, the sort, metrics joined, the rows that result. */
export function usePodView(model: AppModel, node: NodeInfo | undefined) {
  const [filterText, setFilterText] = useState('');
  const [order, setOrder] = useState<SortOrder>({ key: 'namespace', descending: false });
  const filter: ParsedFilter = useMemo(() => parseFilter(filterText), [filterText]);
  const nodeId = node?.id ?? null;
  const nodeMetrics = nodeId ? model.metrics.get(nodeId) : undefined;
  const offline = node?.state.phase === 'offline';
  const metricsOf = useMemo(() => podMetricsLookup(nodeMetrics, offline), [nodeMetrics, offline]);
  const fieldKeyOf = useFieldSort(model, nodeId ? [nodeId] : [], order.key);
  return {
    filterText,
    setFilterText,
    filter,
    order,
    setOrder,
    sortBy: (key: OrderKey) => setOrder(order.key === key ? { key, descending: !order.descending } : { key, descending: descendingFirst(key) }),
    nodeMetrics,
    offline,
    metricsOf,
    /** The node's rows as the table shows them: filtered and sorted, kept up to date batch by batch. Read when drawn. */
    shownRows: (): readonly PodRow[] => (nodeId ? model.pods.view(nodeId, filter, order, metricsOf, fieldKeyOf) : []),
  };
}

export type PodView = ReturnType<typeof usePodView>;
