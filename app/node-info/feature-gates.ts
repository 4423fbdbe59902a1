/**
 * The kubelet's feature gates as configured: the config file's `featureGates` map with `--feature-gates`
 * on top (the flag wins, as in the kubelet), and whether the Pods API gate is on: set explicitly, or by
 * its default for the kubelet's version (kubelet-pods-api.md: alpha in 1.36, beta and on from 1.37).
 */

export type FeatureGates = Record<string, boolean>;

export class FeatureGateError extends Error {
  override name = 'FeatureGateError';
}

/** `--feature-gates=A=true,B=false`. */
export function parseFeatureGateFlag(text: string): FeatureGates {
  const gates: FeatureGates = {};
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Za-z0-9]+)=(true|false)$/i.exec(item);
    if (!m) throw new FeatureGateError(`feature gate '${item}' is not NAME=true or NAME=false`);
    gates[m[1]!] = m[2]!.toLowerCase() === 'true';
  }
  return gates;
}

/** A config's `featureGates` value: a map of booleans; anything else is named. */
export function featureGatesFromConfig(value: unknown): FeatureGates {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new FeatureGateError('featureGates is not a map of NAME: true|false');
  const gates: FeatureGates = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'boolean') throw new FeatureGateError(`featureGates.${k} is ${JSON.stringify(v)}, not true or false`);
    gates[k] = v;
  }
  return gates;
}

/** The gate's name as shipped, and the name the KEP and older docs use. */
export const PODS_API_GATES = ['PodsAPI', 'PodInfoAPI'] as const;

export interface PodsApiGate {
  /** Absent when neither the gates nor the version tell. */
  enabled?: boolean;
  /** How that was decided, in words. */
  why: string;
}

/** `version` as `kubelet --version` prints it (`v1.37.2`), when known. */
export function podsApiGate(gates: FeatureGates | undefined, version: string | undefined): PodsApiGate {
  for (const name of PODS_API_GATES) {
    if (gates && name in gates) return { enabled: gates[name]!, why: `${name}=${gates[name]} in the kubelet's feature gates` };
  }
  const m = version ? /^v?(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return { why: gates ? 'not set, and the kubelet version (which sets its default) was not read' : 'neither the feature gates nor the kubelet version were read' };
  const minor = Number(m[1]) === 1 ? Number(m[2]) : Infinity;
  if (minor >= 37) return { enabled: true, why: `not set: on by default from Kubernetes 1.37 (kubelet ${version})` };
  if (minor === 36) return { enabled: false, why: `not set: alpha and off by default in Kubernetes 1.36 (kubelet ${version})` };
  return { enabled: false, why: `kubelet ${version} predates the Pods API (Kubernetes 1.36)` };
}
