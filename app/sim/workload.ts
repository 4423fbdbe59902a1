// What the generator knows of a pod's owner and of the node, shared by the builders of each pod section.
import type { AppTemplate } from './pod-catalog';

export type WorkloadKind = 'Deployment' | 'DaemonSet' | 'StatefulSet' | 'Job' | 'CronJob' | 'Static' | 'Bare';

export interface Workload {
  kind: WorkloadKind;
  app: AppTemplate;
  name: string;
  namespace: string;
  uid: string;
  /** pod-template-hash or controller-revision-hash. */
  hash: string;
  /** Seeds the pod template, so every replica of a workload has the same spec. */
  templateSeed: number;
  nextOrdinal: number;
  component?: string;
  configHash?: string;
}

/** The node the pods are generated for. */
export interface NodeFacts {
  readonly nodeName: string;
  readonly nodeUid: string;
  readonly hostIP: string;
}
