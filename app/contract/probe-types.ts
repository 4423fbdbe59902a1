/** A container's probes, in the order they run; apart from the schemas so a CLI start need not load zod. */
export const PROBE_TYPES = ['startup', 'liveness', 'readiness'] as const;
