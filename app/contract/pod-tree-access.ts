import type { PodObject, PodValue } from '../pod/pod-tree';

// Typed reads of a pod tree whose keys may be absent (presence mirrors the wire).
export const objAt = (v: PodValue | undefined): PodObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v !== 'bigint' ? v : {};
export const listAt = (v: PodValue | undefined): PodObject[] => (Array.isArray(v) ? v.map(objAt) : []);
export const strAt = (v: PodValue | undefined): string => (typeof v === 'string' ? v : '');
export const optStrAt = (v: PodValue | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const numAt = (v: PodValue | undefined): number =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
export const stringMapAt = (v: PodValue | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(objAt(v))) if (typeof val === 'string') out[k] = val;
  return out;
};
