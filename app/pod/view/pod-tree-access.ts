import type { PodObject, PodValue } from '../pod-tree';

// Typed reads of a pod tree whose keys may be absent (presence mirrors the wire).
export const objAt = (v: PodValue | undefined): PodObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v !== 'bigint' ? v : {};
export const listAt = (v: PodValue | undefined): PodObject[] => (Array.isArray(v) ? v.map(objAt) : []);
export const strAt = (v: PodValue | undefined): string => (typeof v === 'string' ? v : '');
export const optStrAt = (v: PodValue | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const numAt = (v: PodValue | undefined): number =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
// Object.fromEntries defines own keys, so a `__proto__` label is kept rather than taken as a prototype.
export const stringMapAt = (v: PodValue | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(objAt(v)).filter((e): e is [string, string] => typeof e[1] === 'string'));
