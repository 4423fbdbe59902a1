/**
 * Probe results from the kubelet's `/metrics/probes` (Prometheus text): `prober_probe_total` by
 * container, probe type and result. The kubelet exports counts only; the last result is the one whose
 * count rose since the previous scrape (undefined until two scrapes tell), see lastResults().
 */
export type ProbeType = 'liveness' | 'readiness' | 'startup';
export type ProbeResult = 'successful' | 'failed' | 'unknown';

export interface ProbeCounts {
  successful: number;
  failed: number;
  unknown: number;
  /** The result of the latest run, when known (see lastResults). */
  last?: ProbeResult;
}

/** Key: `uid/container`; then the probe types that container has. */
export type ProbeTable = Map<string, Partial<Record<ProbeType, ProbeCounts>>>;

export const probeKey = (uid: string, container: string) => `${uid}/${container}`;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescape = (v: string) => v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

export function parseProbeMetrics(text: string): ProbeTable {
  const table: ProbeTable = new Map();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m || m[1] !== 'prober_probe_total') continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = unescape(l[2]!);
    const type = labels.probe_type?.toLowerCase() as ProbeType | undefined;
    const result = labels.result as ProbeResult | undefined;
    const value = Number(m[3]);
    if (!labels.pod_uid || !labels.container || !type || !['liveness', 'readiness', 'startup'].includes(type) || !result || !['successful', 'failed', 'unknown'].includes(result) || !Number.isFinite(value)) continue;
    const key = probeKey(labels.pod_uid, labels.container);
    const entry = table.get(key) ?? {};
    const counts = (entry[type] ??= { successful: 0, failed: 0, unknown: 0 });
    counts[result] += value;
    table.set(key, entry);
  }
  return table;
}

const RESULTS = ['failed', 'unknown', 'successful'] as const;

/**
 * Fills `last` in `now` from what rose since `before`; a count that did not move keeps the previous last.
 * A probe that only ever had one result (a startup probe that passed once) had it last too, from one scrape.
 */
export function lastResults(before: ProbeTable | undefined, now: ProbeTable): ProbeTable {
  for (const [key, types] of now) {
    for (const type of Object.keys(types) as ProbeType[]) {
      const a = before?.get(key)?.[type];
      const b = types[type]!;
      const rose = a ? RESULTS.filter((r) => b[r] > a[r]) : [];
      const ever = RESULTS.filter((r) => b[r] > 0);
      // Several rose between scrapes: the order is not known, so only a single kind of change names the last result.
      if (rose.length === 1) b.last = rose[0]!;
      else if (rose.length === 0 && a?.last) b.last = a.last;
      else if (ever.length === 1) b.last = ever[0]!;
    }
  }
  return now;
}
