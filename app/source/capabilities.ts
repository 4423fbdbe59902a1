/**
 * What an open source can do besides its pods, as small capabilities a view asks for (k9s's Loggable,
 * Describer): "does this source have logs?", never "is this an SSH node?". A source has the ones its
 * kind and connection give it; a new capability is one interface here and the sources that have it.
 * Pods, metrics (CPU, memory, probes) and resources (PodResources) are pushed to the hub as the source
 * reads them (NodeLinkEvents); what a view reads on demand is asked for here. Types only, browser-safe.
 */
import type { LogFileAccess } from '../logs/log-file-access';
import type { KubeletLogTarget, LogReadOptions } from '../logs/log-options';

/** Where a source's container logs are, and how to read them (app/logs). */
export interface NodeLogFiles {
  access: LogFileAccess;
  /** The kubelet's podLogsDir on the node. */
  logsDir: string;
  /** Whether the commands run with sudo (the node's setting), for what a refusal should suggest. */
  sudo: boolean;
}

/** Container logs the kubelet reads and sends (its REST API's `/containerLogs`), line by line. */
export interface KubeletLogs {
  read(target: KubeletLogTarget, options: LogReadOptions): AsyncIterable<Buffer>;
  /** Where read() reads from, in words. */
  origin(target: KubeletLogTarget, options: LogReadOptions): string;
}

/** Container logs (k9s: Loggable); undefined while the source has no connection to read them through. */
export interface Loggable {
  logFiles(): Promise<NodeLogFiles | undefined>;
  /** A node read through the kubelet's REST API asks the kubelet for its logs, as for its pods. */
  kubeletLogs(): Promise<KubeletLogs | undefined>;
}

/**
 * Every optional capability of an open source. Browser-safe, as the hub and the design preview hold sources:
 * one that reaches its node's commands (node info) is NodeReachable (node-access.ts, Node side).
 */
export type SourceCapabilities = Partial<Loggable>;
