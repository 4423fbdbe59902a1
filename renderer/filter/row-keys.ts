import type { PodRow } from '../../app/contract/pods';

const DOTTED_IPV4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

/** Dotted IPv4 compares by number so 10.0.0.9 comes before 10.0.0.10; IPv6 and '' by text. */
function ipKey(ip: string): string {
  const m = DOTTED_IPV4.exec(ip);
  return m ? `${m[1]!.padStart(3, '0')}.${m[2]!.padStart(3, '0')}.${m[3]!.padStart(3, '0')}.${m[4]!.padStart(3, '0')}` : ip;
}

/** The built-in keys that cost work to make (a parse, a lower-cased copy): made once per row, as it arrives. */
type MadeKey = 'namespace' | 'name' | 'status' | 'age' | 'podIP' | 'node' | 'ownerKind';

/** A row's keys under every built-in order that costs work, so a click on any of those columns only sorts. */
export type RowKeys = Readonly<Record<MadeKey, string | number>>;

/** Lower-cased text of the columns that repeat a few values (namespace, status, node, owner kind), made once per value. */
const lowered = new Map<string, string>();
/** Past this many distinct values the cache starts again, so a node of unusual values cannot grow it without end. */
const LOWERED_MAX = 10_000;

function lower(text: string): string {
  let low = lowered.get(text);
  if (low === undefined) {
    if (lowered.size >= LOWERED_MAX) lowered.clear();
    lowered.set(text, (low = text.toLowerCase()));
  }
  return low;
}

/**
 * Every costly key of a row, made once when its entry is: a table of 30,000 rows clicked on another column
 * made each key again (a time parsed, an IP padded, a name lower-cased per row) before sorting. Numbers
 * compare as numbers, text case-insensitively, like kubectl --sort-by.
 */
export function rowKeys(row: PodRow): RowKeys {
  // Age ascending = youngest first, as in k9s; pods without a time sort last. A time that does not parse
  // sorts as none: NaN would compare equal to everything.
  const time = row.createdAt ? Date.parse(row.createdAt) : Number.NaN;
  return {
    namespace: lower(row.namespace),
    name: row.name.toLowerCase(),
    status: lower(row.status),
    age: Number.isNaN(time) ? Number.POSITIVE_INFINITY : -time,
    podIP: ipKey(row.podIP),
    node: lower(row.node),
    ownerKind: lower(row.ownerKind),
  };
}
