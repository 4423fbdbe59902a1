import { useCallback, useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodRow } from '../../app/contract/pods';
import { MAX_FIELD_PODS } from '../../app/contract/table-views';
import type { FieldValue, FieldValues } from './field-value';

/** Where a row of the table comes from: its source and the pod's UID there (the table over several sources keys rows by both). */
export type RowSource = (key: string) => { nodeId: string; uid: string };

/**
 * The field columns' values of the rows drawn, read from the app core (pods.fields, one source at a
 * time) as they come on screen and again when a row changes; a field the row's source's mask left out is
 * 'masked' without asking. `maskKey`: the sources and their masks, which the values read depend on.
 */
export function useFieldValues(a: {
  bridge: Bridge;
  paths: readonly string[];
  sourceOf: RowSource;
  leftOut: (nodeId: string, path: string) => boolean;
  rowOf: (key: string) => PodRow | undefined;
  maskKey: string;
}) {
  const key = `${a.maskKey}|${a.paths.join(',')}`;
  /** Per row: the row its values were read for, and the values. */
  const cache = useRef(new Map<string, { row: PodRow; values: FieldValues }>());
  const cacheKey = useRef(key);
  if (cacheKey.current !== key) {
    cacheKey.current = key;
    cache.current = new Map();
  }
  const [drawn, setDrawn] = useState<readonly string[]>([]);
  const [, setVersion] = useState(0);
  const inFlight = useRef(false);
  /** The key whose read failed: not asked again at every render (the design preview has no pods.fields). */
  const failed = useRef<string | null>(null);
  const latest = useRef(a);
  latest.current = a;

  // Checked after every render: rows drawn with no values yet, or values read for an older version of the row.
  useEffect(() => {
    const { bridge, paths, sourceOf, leftOut, rowOf } = latest.current;
    if (paths.length === 0 || inFlight.current || failed.current === key) return;
    const stale = drawn.filter((k) => {
      const row = rowOf(k);
      return row !== undefined && cache.current.get(k)?.row !== row;
    });
    if (stale.length === 0) return;
    // The first stale row's source now; the others' on the next pass (one request at a time).
    const nodeId = sourceOf(stale[0]!).nodeId;
    const rows = new Map(
      stale
        .filter((k) => sourceOf(k).nodeId === nodeId)
        .slice(0, MAX_FIELD_PODS)
        .map((k) => [sourceOf(k).uid, { key: k, row: rowOf(k)! }]),
    );
    const asked = paths.filter((p) => !leftOut(nodeId, p));
    const masked = (values: (readonly string[] | null)[]): FieldValues => {
      const out: Record<string, FieldValue> = {};
      let i = 0;
      for (const p of paths) out[p] = leftOut(nodeId, p) ? 'masked' : values[i++] ?? null;
      return out;
    };
    const forKey = key;
    if (asked.length === 0) {
      for (const { key: k, row } of rows.values()) cache.current.set(k, { row, values: masked([]) });
      setVersion((v) => v + 1);
      return;
    }
    inFlight.current = true;
    bridge
      .request('pods.fields', { nodeId, uids: [...rows.keys()], paths: asked })
      .then(
        ({ values }) => {
          if (cacheKey.current !== forKey) return;
          for (const [uid, { key: k, row }] of rows) cache.current.set(k, { row, values: masked(values[uid] ?? asked.map(() => null)) });
          setVersion((v) => v + 1);
        },
        () => {
          failed.current = forKey;
        },
      )
      .finally(() => {
        inFlight.current = false;
      });
  });

  const fieldsOf = useCallback((k: string) => cache.current.get(k)?.values, [key]);
  return { fieldsOf, onDrawnRows: setDrawn };
}
