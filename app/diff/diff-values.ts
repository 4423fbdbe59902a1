/**
 * The structural diff of two JSON documents (a pod's kubectl JSON on each side): what changed, path by
 * path, and the RFC 6902 patch that turns the left document into exactly the right one.
 *
 * List elements are matched by identity where their list has one (list-identity.ts): an inserted
 * container is one `added` change and one `add` op, and a reorder is one `reordered` change plus `move`
 * ops. Elements without a usable key (none set, or the key repeats on a side) are matched by position
 * among themselves. A path the caller ignores is compared as a whole: one change marked with the rule
 * that hides it, and one op, so the patch stays complete while ignored noise (managedFields) costs little.
 */
import type { PodValue } from '../pod/pod-tree';
import { pointerOf, type DiffPath, type PathPart } from './diff-path';
import { identityFields, identityOf, type ElementIdentity } from './list-identity';

export type JsonValue = PodValue;

export interface ValueChange {
  path: DiffPath;
  kind: 'added' | 'removed' | 'changed' | 'reordered';
  before?: JsonValue;
  after?: JsonValue;
  /** The noise rule that hides this change from people (it still is in the patch). */
  ignoredBy?: string;
}

export type PatchOp =
  | { op: 'add' | 'replace'; path: string; value: JsonValue }
  | { op: 'remove'; path: string }
  | { op: 'move'; from: string; path: string };

export interface ValueDiff {
  changes: ValueChange[];
  patch: PatchOp[];
}

/** Says which noise rule, if any, hides the value at `path`. */
export type IgnoreCheck = (path: DiffPath) => string | undefined;

export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let count = 0;
  for (const key in a) {
    if (a[key] === undefined) continue;
    count++;
    if (!Object.hasOwn(b, key) || !deepEqual(a[key], b[key])) return false;
  }
  for (const key in b) if (b[key] !== undefined) count--;
  return count === 0;
}

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue | undefined } => typeof v === 'object' && v !== null && !Array.isArray(v);

export function diffValues(left: JsonValue, right: JsonValue, ignore: IgnoreCheck = () => undefined): ValueDiff {
  const out: ValueDiff = { changes: [], patch: [] };
  new Differ(out, ignore).value(left, right, [], []);
  return out;
}

class Differ {
  constructor(
    private readonly out: ValueDiff,
    private readonly ignore: IgnoreCheck,
  ) {}

  value(left: JsonValue, right: JsonValue, path: PathPart[], at: (string | number)[]): void {
    if (left === right) return;
    const rule = path.length > 0 ? this.ignore(path) : undefined;
    if (rule !== undefined) {
      if (!deepEqual(left, right)) {
        this.out.changes.push({ path: [...path], kind: 'changed', before: left, after: right, ignoredBy: rule });
        this.out.patch.push({ op: 'replace', path: pointerOf(at), value: right });
      }
      return;
    }
    if (isObject(left) && isObject(right)) return this.object(left, right, path, at);
    if (Array.isArray(left) && Array.isArray(right)) {
      const last = path[path.length - 1];
      const fields = last?.kind === 'key' ? identityFields(last.name) : undefined;
      return this.list(left, right, fields, path, at);
    }
    if (deepEqual(left, right)) return;
    this.out.changes.push({ path: [...path], kind: 'changed', before: left, after: right });
    this.out.patch.push({ op: 'replace', path: pointerOf(at), value: right });
  }

  private object(left: { [key: string]: JsonValue | undefined }, right: { [key: string]: JsonValue | undefined }, path: PathPart[], at: (string | number)[]): void {
    for (const key in left) {
      const before = left[key];
      if (before === undefined) continue;
      const after = right[key];
      path.push({ kind: 'key', name: key });
      at.push(key);
      if (after === undefined || !Object.hasOwn(right, key)) this.edge(path, at, 'removed', before, undefined);
      else this.value(before, after, path, at);
      path.pop();
      at.pop();
    }
    for (const key in right) {
      const after = right[key];
      if (after === undefined || (Object.hasOwn(left, key) && left[key] !== undefined)) continue;
      path.push({ kind: 'key', name: key });
      at.push(key);
      this.edge(path, at, 'added', undefined, after);
      path.pop();
      at.pop();
    }
  }

  /** A member or element that is on one side only. */
  private edge(path: PathPart[], at: (string | number)[], kind: 'added' | 'removed', before: JsonValue | undefined, after: JsonValue | undefined): void {
    const rule = this.ignore(path);
    const change: ValueChange = kind === 'added' ? { path: [...path], kind, after: after! } : { path: [...path], kind, before: before! };
    if (rule !== undefined) change.ignoredBy = rule;
    this.out.changes.push(change);
    this.out.patch.push(kind === 'added' ? { op: 'add', path: pointerOf(at), value: after! } : { op: 'remove', path: pointerOf(at) });
  }

  private list(left: JsonValue[], right: JsonValue[], fields: readonly string[] | undefined, path: PathPart[], at: (string | number)[]): void {
    const leftIds = identities(left, fields);
    const rightIds = identities(right, fields);
    const usable = usableKeys(leftIds, rightIds);
    // partner[i] is the right index matched with left element i; unkeyed elements pair up by position.
    const partner = new Array<number>(left.length).fill(-1);
    const matched = new Array<boolean>(right.length).fill(false);
    const rightByKey = new Map<string, number>();
    rightIds.forEach((id, j) => id && usable.has(id.key) && rightByKey.set(id.key, j));
    const unkeyedRight = rightIds.flatMap((id, j) => (id && usable.has(id.key) ? [] : [j]));
    let nextUnkeyed = 0;
    left.forEach((_, i) => {
      const id = leftIds[i];
      const j = id && usable.has(id.key) ? rightByKey.get(id.key) : unkeyedRight[nextUnkeyed++];
      if (j !== undefined) {
        partner[i] = j;
        matched[j] = true;
      }
    });
    const part = (ids: (ElementIdentity | undefined)[], index: number): PathPart => {
      const id = ids[index];
      return id && usable.has(id.key) ? { kind: 'element', index, identity: id.shown } : { kind: 'element', index };
    };

    // Removed elements first, from the end, so the indices of the others stay as they were.
    for (let i = left.length - 1; i >= 0; i--) {
      if (partner[i] !== -1) continue;
      path.push(part(leftIds, i));
      at.push(i);
      this.edge(path, at, 'removed', left[i], undefined);
      path.pop();
      at.pop();
    }
    // Then the right order, one position at a time: each element is moved or added to its place.
    const working = partner.flatMap((j, i) => (j === -1 ? [] : [i]));
    const reordered = working.some((i, k) => k > 0 && partner[i]! < partner[working[k - 1]!]!);
    if (reordered) this.out.changes.push({ path: [...path], kind: 'reordered', before: left, after: right });
    const leftOf = new Map<number, number>();
    partner.forEach((j, i) => j !== -1 && leftOf.set(j, i));
    for (let j = 0; j < right.length; j++) {
      const i = leftOf.get(j);
      at.push(j);
      if (i === undefined) {
        path.push(part(rightIds, j));
        this.edge(path, at, 'added', undefined, right[j]);
        working.splice(j, 0, -1);
      } else {
        const now = working.indexOf(i, j);
        if (now !== j) {
          this.out.patch.push({ op: 'move', from: pointerOf([...at.slice(0, -1), now]), path: pointerOf(at) });
          working.splice(now, 1);
          working.splice(j, 0, i);
        }
        path.push(part(leftIds, i));
        this.value(left[i]!, right[j]!, path, at);
      }
      path.pop();
      at.pop();
    }
  }
}

function identities(list: JsonValue[], fields: readonly string[] | undefined): (ElementIdentity | undefined)[] {
  return fields ? list.map((e) => identityOf(e, fields)) : list.map(() => undefined);
}

/** Keys that name exactly one element on each side where they appear: a repeated key cannot identify. */
function usableKeys(left: (ElementIdentity | undefined)[], right: (ElementIdentity | undefined)[]): Set<string> {
  const counts = new Map<string, number>();
  const repeated = new Set<string>();
  for (const side of [left, right]) {
    counts.clear();
    for (const id of side) if (id) counts.set(id.key, (counts.get(id.key) ?? 0) + 1);
    for (const [key, n] of counts) if (n > 1) repeated.add(key);
  }
  const usable = new Set<string>();
  for (const side of [left, right]) for (const id of side) if (id && !repeated.has(id.key)) usable.add(id.key);
  return usable;
}
