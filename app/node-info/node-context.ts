/**
 * What `nodescope node` reports about a node, part by part. Each part is read on its own: one that
 * could not be read carries why (and what to do), and the others are still there. A value not read is
 * left out, never given as zero or empty. This is the JSON shape of `nodescope node -o json`
 * (docs/node-info.md), and what a source with node information offers (NodeInfo).
 */
import type { ContainerDifference } from './container-difference';
import type { RuntimeVersion } from './crictl-output';
import type { FeatureGates, PodsApiGate } from './feature-gates';
import type { JournalLine, UnitState } from './kubelet-journal';
import type { NodeAllocatable } from './node-allocatable';

/** Read: the value and where it came from (a command, a file, an endpoint). Not read: why, and the next step. */
export type Part<T> = { from: string; value: T } | { error: string; nextStep?: string };

export const isRead = <T>(p: Part<T>): p is { from: string; value: T } => 'value' in p;

export interface KubeletProcess {
  pid: number;
  /** argv[0] as the kubelet was started. */
  binary: string;
  configPath?: string;
  runtimeEndpoint?: string;
  featureGatesFlag?: string;
}

export interface KubeletHealth {
  /** `ok` when healthy; what /healthz said otherwise. */
  healthy: boolean;
  status: number;
  body: string;
}

export interface NodeContext {
  process: Part<KubeletProcess>;
  /** `Kubernetes v1.37.1` → `v1.37.1`. */
  version: Part<string>;
  health: Part<KubeletHealth>;
  /** The configuration as read: /configz (effective) or the config file. */
  config: Part<Record<string, unknown>>;
  featureGates: Part<{ gates: FeatureGates; podsApi: PodsApiGate }>;
  runtime: Part<RuntimeVersion & { endpoint?: string }>;
  journal: Part<{ unit: UnitState; lines: JournalLine[] }>;
  containers: Part<ContainerDifference>;
  /** What the kubelet may hand out (PodResources GetAllocatableResources); not read where no socket is given. */
  allocatable: Part<NodeAllocatable>;
}

/** Node context as a capability: a source that can read it offers this. */
export interface NodeInfo {
  read(): Promise<NodeContext>;
}

/** A part that could not be read, as an error a caller can throw and catch. */
export class PartError extends Error {
  override name = 'PartError';
  constructor(message: string, readonly nextStep?: string) {
    super(message);
  }
}
