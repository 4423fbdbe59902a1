import { useCallback } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { AppModel } from '../state/app-model';
import { splitFleetKey } from '../state/pod-store';
import type { PodColumn } from '../components/pod-columns';
import { maskLeavesOut } from './column-layout';
import { useFieldValues } from './use-field-values';

/**
 * The field columns' values in the table over several sources: each row's read from its own source, through
 * that source's mask (a row whose source's mask left the field out says so in its cell).
 */
export function useSourcesFieldValues(model: AppModel, nodes: readonly NodeInfo[], chosen: readonly PodColumn[]) {
  const paths = chosen.flatMap((c) => (c.path ? [c.path] : []));
  const maskKey = nodes.map((n) => `${n.id}:${n.mask}`).join('|');
  const leftOut = (nodeId: string, path: string) => maskLeavesOut(model.node(nodeId)?.maskPaths ?? [], path);
  const rowOf = useCallback((key: string) => {
    const { nodeId, uid } = splitFleetKey(key);
    return model.pods.get(nodeId, uid);
  }, [model]);
  return useFieldValues({ bridge: model.bridge, paths, sourceOf: splitFleetKey, leftOut, rowOf, maskKey });
}
