import type { DiffEntry } from '../../app/contract/diff';

type Counts = Record<DiffEntry['change'], number>;

export interface OwnerGroup {
  /** "ReplicaSet/web-5d", '' for pods without a controller. */
  owner: string;
  counts: Counts;
  entries: DiffEntry[];
}

export interface NamespaceGroup {
  namespace: string;
  counts: Counts;
  owners: OwnerGroup[];
}

const zero = (): Counts => ({ added: 0, removed: 0, changed: 0 });

/** A comparison's pods by namespace, then by owner, each with its counts; namespaces and owners sorted. */
export function groupDiffEntries(entries: readonly DiffEntry[]): NamespaceGroup[] {
  const namespaces = new Map<string, { counts: Counts; owners: Map<string, OwnerGroup> }>();
  for (const entry of entries) {
    const { namespace, ownerKind, ownerName } = entry.row;
    let ns = namespaces.get(namespace);
    if (!ns) namespaces.set(namespace, (ns = { counts: zero(), owners: new Map() }));
    const owner = ownerKind ? `${ownerKind}/${ownerName}` : '';
    let group = ns.owners.get(owner);
    if (!group) ns.owners.set(owner, (group = { owner, counts: zero(), entries: [] }));
    ns.counts[entry.change]++;
    group.counts[entry.change]++;
    group.entries.push(entry);
  }
  const byName = <T,>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return [...namespaces].sort(byName).map(([namespace, ns]) => ({
    namespace,
    counts: ns.counts,
    owners: [...ns.owners].sort(byName).map(([, g]) => g),
  }));
}
