import { setKey, type PodObject, type PodValue } from '../pod-tree';

// Typed reads of a pod tree whose keys may be absent (presence mirrors the wire).
export const objAt = (v: PodValue | undefined): PodObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v !== 'bigint' ? v : {};
export const listAt = (v: PodValue | undefined): PodObject[] => (Array.isArray(v) ? v.map(objAt) : []);
export const strAt = (v: PodValue | undefined): string => (typeof v === 'string' ? v : '');
export const optStrAt = (v: PodValue | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const numAt = (v: PodValue | undefined): number =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
/** The string values of a map (labels); a `__proto__` key is kept as a key (setKey). A loop: every pod's row reads one. */
export const stringMapAt = (v: PodValue | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  const map = objAt(v);
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (typeof value === 'string') setKey(out, key, value);
  }
  return out;
};
