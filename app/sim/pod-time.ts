/** A Kubernetes `Time` as kubectl prints it: RFC 3339 in UTC, to the second. */
export function podTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** The kubelet's `kubernetes.io/config.seen` annotation keeps nanoseconds; we have milliseconds. */
export function podTimeNanos(ms: number, nanosBelowMs: number): string {
  const iso = new Date(ms).toISOString(); // 2026-06-26T10:12:39.993Z
  return `${iso.slice(0, -1)}${String(nanosBelowMs).padStart(6, '0')}Z`;
}
