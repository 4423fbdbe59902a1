/** namespace/name, as the pod is named in titles; its UID while its row is not known. */
export const podLabel = (row: { namespace: string; name: string } | undefined, uid: string): string => (row ? `${row.namespace}/${row.name}` : uid);
