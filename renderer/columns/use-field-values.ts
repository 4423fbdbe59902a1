import { useCallback, useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodRow } from '../../app/contract/pods';
import { MAX_FIELD_PODS } from '../../app/contract/table-views';
import type { FieldValue, FieldValues } from './field-value';

/**
 * The field columns' values of the rows drawn, read from the app core (pods.fields) as they come on
 * screen and again when a row changes; a field the node's mask left out is 'masked' without asking.
 */
export function useFieldValues(a: { bridge: Bridge; nodeId: string; paths: readonly string[]; leftOut: (path: string) => boolean; rowOf: (uid: string) => PodRow | undefined; maskKey: string }) {
  const key = `${a.nodeId}|${a.maskKey}|${a.paths.join(',')}`;
  /** Per pod: the row its values were read for, and the values. */
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
    const { bridge, nodeId, paths, leftOut, rowOf } = latest.current;
    if (paths.length === 0 || inFlight.current || failed.current === key) return;
    const asked = paths.filter((p) => !leftOut(p));
    const stale = drawn.filter((uid) => {
      const row = rowOf(uid);
      return row !== undefined && cache.current.get(uid)?.row !== row;
    });
    if (stale.length === 0) return;
    const rows = new Map(stale.slice(0, MAX_FIELD_PODS).map((uid) => [uid, rowOf(uid)!]));
    const masked = (values: (readonly string[] | null)[]): FieldValues => {
      const out: Record<string, FieldValue> = {};
      let i = 0;
      for (const p of paths) out[p] = leftOut(p) ? 'masked' : values[i++] ?? null;
      return out;
    };
    const forKey = key;
    if (asked.length === 0) {
      for (const [uid, row] of rows) cache.current.set(uid, { row, values: masked([]) });
      setVersion((v) => v + 1);
      return;
    }
    inFlight.current = true;
    bridge
      .request('pods.fields', { nodeId, uids: [...rows.keys()], paths: asked })
      .then(
        ({ values }) => {
          if (cacheKey.current !== forKey) return;
          for (const [uid, row] of rows) cache.current.set(uid, { row, values: masked(values[uid] ?? asked.map(() => null)) });
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

  const fieldsOf = useCallback((uid: string) => cache.current.get(uid)?.values, [key]);
  return { fieldsOf, onDrawnRows: setDrawn };
}
