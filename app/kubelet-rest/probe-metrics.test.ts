import { describe, expect, it } from 'vitest';
import { lastResults, parseProbeMetrics, probeKey } from './probe-metrics';

const scrape = (live: [number, number], ready: [number, number]) => `# HELP prober_probe_total [ALPHA] Cumulative number of a liveness, readiness or startup probe for a container by result.
# TYPE prober_probe_total counter
prober_probe_total{container="web",namespace="shop",pod="web-0",pod_uid="u1",probe_type="Liveness",result="successful"} ${live[0]}
prober_probe_total{container="web",namespace="shop",pod="web-0",pod_uid="u1",probe_type="Liveness",result="failed"} ${live[1]}
prober_probe_total{container="web",namespace="shop",pod="web-0",pod_uid="u1",probe_type="Readiness",result="successful"} ${ready[0]}
prober_probe_total{container="web",namespace="shop",pod="web-0",pod_uid="u1",probe_type="Readiness",result="failed"} ${ready[1]}
prober_probe_total{container="a \\"quoted\\" name",namespace="shop",pod="x",pod_uid="u2",probe_type="Startup",result="successful"} 1
prober_probe_duration_seconds_bucket{container="web",le="0.1"} 3
`;

describe('/metrics/probes', () => {
  it('reads counts per container and probe type, and skips other metrics', () => {
    const t = parseProbeMetrics(scrape([10, 2], [7, 0]));
    expect(t.get(probeKey('u1', 'web'))).toEqual({ liveness: { successful: 10, failed: 2, unknown: 0 }, readiness: { successful: 7, failed: 0, unknown: 0 } });
    expect(t.get(probeKey('u2', 'a "quoted" name'))?.startup?.successful).toBe(1);
    expect(t.size).toBe(2);
  });

  it('knows the last result from what rose since the previous scrape, or from a probe that only ever had one result', () => {
    const first = lastResults(undefined, parseProbeMetrics(scrape([10, 2], [7, 0])));
    // 10 passed and 2 failed: which came last is not known from one scrape.
    expect(first.get('u1/web')?.liveness?.last).toBeUndefined();
    // Only ever passed: the last run passed too.
    expect(first.get('u1/web')?.readiness?.last).toBe('successful');
    expect(first.get('u2/a "quoted" name')?.startup?.last).toBe('successful');
    const second = lastResults(first, parseProbeMetrics(scrape([10, 3], [8, 0])));
    expect(second.get('u1/web')?.liveness?.last).toBe('failed');
    expect(second.get('u1/web')?.readiness?.last).toBe('successful');
    // Nothing ran since: the last result stays; both kinds rose: the order is unknown, so none is claimed.
    const third = lastResults(second, parseProbeMetrics(scrape([11, 4], [8, 0])));
    expect(third.get('u1/web')?.readiness?.last).toBe('successful');
    expect(third.get('u1/web')?.liveness?.last).toBeUndefined();
  });
});
