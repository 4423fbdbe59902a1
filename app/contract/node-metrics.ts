import { z } from 'zod';

/**
 * What a node's kubelet says beside its pods, read at an interval: CPU and memory (REST /stats/summary),
 * probe results (REST /metrics/probes), what the container runtime runs (REST /runningpods/) and the
 * devices, exclusive CPUs and memory each container holds (PodResources API). Each part is either
 * there or says why not: a value Nodescope did not receive is never shown as zero.
 */
const unavailable = z.object({ available: z.literal(false), reason: z.string() });
const part = <T extends z.ZodRawShape>(shape: T) => z.discriminatedUnion('available', [z.object({ available: z.literal(true), ...shape }), unavailable]);

/** Absent fields: the kubelet did not report them. */
export const UsageSchema = z.object({
  /** Cores in use. */
  cpuCores: z.number().min(0).optional(),
  /** Working set bytes (what kubectl top shows and the kubelet evicts on). */
  memoryBytes: z.number().min(0).optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const PodUsageSchema = UsageSchema.extend({ containers: z.record(z.string(), UsageSchema) });
export type PodUsage = z.infer<typeof PodUsageSchema>;

export const ProbeResultSchema = z.enum(['successful', 'failed', 'unknown']);
export const ProbeCountsSchema = z.object({
  successful: z.number().int().min(0),
  failed: z.number().int().min(0),
  unknown: z.number().int().min(0),
  /** The latest run's result, once two reads tell it (the kubelet exports counts only). */
  last: ProbeResultSchema.optional(),
});
export type ProbeCounts = z.infer<typeof ProbeCountsSchema>;
export { PROBE_TYPES } from './probe-types';
export const ContainerProbesSchema = z.object({ liveness: ProbeCountsSchema.optional(), readiness: ProbeCountsSchema.optional(), startup: ProbeCountsSchema.optional() });
export type ContainerProbes = z.infer<typeof ContainerProbesSchema>;

export const ContainerResourcesSchema = z.object({
  devices: z.array(z.object({ resource: z.string(), ids: z.array(z.string()), numaNodes: z.array(z.number().int()) })),
  cpuIds: z.array(z.number().int()),
  memory: z.array(z.object({ type: z.string(), bytes: z.number().min(0), numaNodes: z.array(z.number().int()) })),
});
export type ContainerResources = z.infer<typeof ContainerResourcesSchema>;

export const ResourceLineSchema = z.object({
  resource: z.string(),
  allocatable: z.number().min(0),
  taken: z.number().min(0),
  unit: z.enum(['devices', 'cpus', 'bytes']),
});
export type ResourceLine = z.infer<typeof ResourceLineSchema>;

const PodRefSchema = z.object({ uid: z.string(), namespace: z.string(), name: z.string() });

export const NodeMetricsSchema = z.object({
  /** When they were read (epoch ms). */
  at: z.number(),
  usage: part({ node: UsageSchema, pods: z.record(z.string(), PodUsageSchema) }),
  /** By pod UID, then container name. */
  probes: part({ pods: z.record(z.string(), z.record(z.string(), ContainerProbesSchema)) }),
  /** By `namespace/name` (PodResources names pods, not UIDs), then container name. */
  resources: part({ pods: z.record(z.string(), z.record(z.string(), ContainerResourcesSchema)), node: z.array(ResourceLineSchema) }),
  runtime: part({
    /** Run by the container runtime, not listed by the kubelet. */
    runtimeOnly: z.array(PodRefSchema.extend({ containers: z.array(z.string()) })),
    /** Listed by the kubelet as Running, not run by the runtime. */
    notRunning: z.array(PodRefSchema),
  }),
});
export type NodeMetrics = z.infer<typeof NodeMetricsSchema>;

/** A node's latest metrics; null when it has none (not connected, or never read). */
export const NodeMetricsEventSchema = z.object({ nodeId: z.string(), metrics: NodeMetricsSchema.nullable() });
export type NodeMetricsEvent = z.infer<typeof NodeMetricsEventSchema>;
