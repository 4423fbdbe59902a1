/**
 * A pod as kubectl prints it (parsed JSON) -> a pod tree (pod-tree.ts), checked against the pod schema:
 * every value has the type its field has, apiVersion/kind are taken off (the printer adds them back), and
 * what is present stays exactly what was in the file, so the printers print the pod back byte for byte.
 * Keys the schema does not know (a newer Kubernetes) are kept in the tree and reported.
 */
import { podSchema, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import type { PodObject, PodTree, PodValue } from '../pod/pod-tree';

/** A value of the wrong type, named by its JSON path. */
export class PodJsonError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path ? `${path}: ` : ''}${problem}`);
    this.name = 'PodJsonError';
  }
}

/**
 * JSON.parse rounded an integer beyond ±(2^53-1): the caller parses the text again exactly
 * (exact-json.ts) and converts that with `exact: true`. Thrown, not returned, so the common case pays
 * nothing for it.
 */
export class InexactNumber extends Error {
  override name = 'InexactNumber';
}

export interface PodFromJson {
  pod: PodTree;
  /** JSON paths of keys the schema does not know. */
  unknownKeys: string[];
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(typeof v === 'bigint' ? String(v) : v)?.slice(0, 40)}`);
const isObject = (v: unknown): v is PodObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

class Converter {
  readonly unknownKeys: string[] = [];

  /** `exact`: values come from an exact parse, where a number beyond 2^53 was written as a float (1e20), not rounded. */
  constructor(private readonly exact: boolean) {}

  message(m: MessageSchema, obj: unknown, path: string): PodObject {
    if (!isObject(obj)) throw new PodJsonError(path, `expected an object (${m.name}), found ${typeName(obj)}`);
    const out: PodObject = {};
    for (const key in obj) {
      const v = obj[key];
      const member = m.memberByName.get(key);
      if (!member) {
        this.unknownKeys.push(join(path, key));
        this.checkExact(v);
        out[key] = v;
        continue;
      }
      const converted = this.field(member.field, v!, join(path, key));
      if (converted !== undefined) out[key] = converted;
    }
    return out;
  }

  /** undefined: leave the key out (a JSON null where Go would have a nil list, map or pointer). */
  private field(f: FieldSchema, v: PodValue, path: string): PodValue | undefined {
    if (f.map) {
      if (v === null) return undefined;
      if (!isObject(v)) throw new PodJsonError(path, `expected a map of strings, found ${typeName(v)}`);
      for (const k in v) this.element(f, v[k]!, `${path}[${JSON.stringify(k)}]`);
      return v;
    }
    if (f.repeated) {
      if (v === null) return undefined;
      if (!Array.isArray(v)) throw new PodJsonError(path, `expected a list, found ${typeName(v)}`);
      for (let i = 0; i < v.length; i++) v[i] = this.element(f, v[i]!, `${path}[${i}]`);
      return v;
    }
    if (v === null && f.goKind === 'pointer') return undefined;
    return this.element(f, v, path);
  }

  private element(f: FieldSchema, v: PodValue, path: string): PodValue {
    switch (f.scalar) {
      case 'string':
        if (typeof v !== 'string') throw new PodJsonError(path, `expected a string, found ${typeName(v)}`);
        return v;
      case 'bool':
        if (typeof v !== 'boolean') throw new PodJsonError(path, `expected true or false, found ${typeName(v)}`);
        return v;
      case 'int32':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) throw new PodJsonError(path, `expected a 32-bit integer, found ${typeName(v)}`);
        return v;
      case 'int64':
        return this.int64(v, path);
      case 'bytes':
        if (typeof v !== 'string') throw new PodJsonError(path, `expected base64 text, found ${typeName(v)}`);
        return v;
      case undefined:
        break;
    }
    const m = f.message!;
    switch (m.special) {
      case 'time':
        if (v !== null && (typeof v !== 'string' || Number.isNaN(Date.parse(v)))) throw new PodJsonError(path, `expected an RFC 3339 time or null, found ${typeName(v)}`);
        return v;
      case 'quantity':
        if (typeof v !== 'string') throw new PodJsonError(path, `expected a quantity string like "100m", found ${typeName(v)}`);
        return v;
      case 'intOrString':
        if (typeof v === 'string') return v;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) throw new PodJsonError(path, `expected a 32-bit integer or a string, found ${typeName(v)}`);
        return v;
      case 'fieldsV1':
        this.checkExact(v);
        return v;
      case undefined:
        return this.message(m, v, path);
    }
  }

  private int64(v: PodValue, path: string): number | bigint {
    if (typeof v === 'bigint') {
      if (v < INT64_MIN || v > INT64_MAX) throw new PodJsonError(path, `expected a 64-bit integer, found ${v} (out of range)`);
      return v;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new PodJsonError(path, `expected an integer, found ${typeName(v)}`);
    if (Number.isSafeInteger(v)) return v;
    if (!this.exact) throw new InexactNumber();
    // An exact parse keeps integer literals as bigint: this one was written with an exponent or a fraction,
    // which Go's decoder refuses for an int64 (strconv.ParseInt), in range or not.
    if (v < Number(INT64_MIN) || v >= Number(INT64_MAX)) throw new PodJsonError(path, `expected a 64-bit integer, found ${typeName(v)} (out of int64 range)`);
    throw new PodJsonError(path, `expected a 64-bit integer written in digits, found ${typeName(v)}`);
  }

  /** Free-form JSON (managedFields, unknown keys): any rounded integer in it needs the exact parse. */
  private checkExact(v: PodValue | undefined): void {
    if (this.exact) return;
    if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) throw new InexactNumber();
    } else if (Array.isArray(v)) for (const x of v) this.checkExact(x);
    else if (isObject(v)) for (const k in v) this.checkExact(v[k]);
  }
}

/**
 * Converts one parsed pod in place (lists are reused) and returns its tree. Throws PodJsonError for a
 * value of the wrong type, InexactNumber when the parse rounded an integer (never with `exact`, for values
 * from an exact parse: parseExactJson, the YAML reader).
 */
export function podFromJson(value: PodValue, { exact = false }: { exact?: boolean } = {}): PodFromJson {
  if (!isObject(value)) throw new PodJsonError('', `expected a pod object, found ${typeName(value)}`);
  const { apiVersion, kind, ...rest } = value;
  if (kind !== undefined && kind !== 'Pod') throw new PodJsonError('kind', `expected a Pod, found ${typeName(kind)}`);
  if (apiVersion !== undefined && apiVersion !== 'v1') throw new PodJsonError('apiVersion', `expected "v1", found ${typeName(apiVersion)}`);
  const c = new Converter(exact);
  const pod = c.message(podSchema().pod, rest, '');
  return { pod, unknownKeys: c.unknownKeys };
}
