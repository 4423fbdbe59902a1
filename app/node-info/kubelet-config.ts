/**
 * The kubelet's configuration (a v1beta1 KubeletConfiguration): its config file (YAML or JSON) or the
 * effective one from REST `/configz` (`{"kubeletconfig": {...}}`), and the few fields node context needs.
 */
import { parse as parseYaml } from 'yaml';
import { featureGatesFromConfig, type FeatureGates } from './feature-gates';

export interface KubeletConfigFacts {
  /** The configuration as read (the object, not its text). */
  config: Record<string, unknown>;
  featureGates: FeatureGates;
  runtimeEndpoint?: string;
  healthzPort?: number;
  healthzBindAddress?: string;
}

export class KubeletConfigError extends Error {
  override name = 'KubeletConfigError';
}

function facts(config: Record<string, unknown>): KubeletConfigFacts {
  const out: KubeletConfigFacts = { config, featureGates: featureGatesFromConfig(config.featureGates) };
  if (typeof config.containerRuntimeEndpoint === 'string' && config.containerRuntimeEndpoint) out.runtimeEndpoint = config.containerRuntimeEndpoint;
  // healthzPort 0 turns the endpoint off: kept as read, so the reader can say so.
  if (typeof config.healthzPort === 'number') out.healthzPort = config.healthzPort;
  if (typeof config.healthzBindAddress === 'string' && config.healthzBindAddress) out.healthzBindAddress = config.healthzBindAddress;
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A config file's text; `where` names it in errors. */
export function parseKubeletConfigFile(text: string, where: string): KubeletConfigFacts {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new KubeletConfigError(`${where} is not YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isObject(doc)) throw new KubeletConfigError(`${where} does not hold a KubeletConfiguration (a map)`);
  if (doc.kind !== undefined && doc.kind !== 'KubeletConfiguration') throw new KubeletConfigError(`${where} is a ${String(doc.kind)}, not a KubeletConfiguration`);
  return facts(doc);
}

/** The body of `GET /configz`. */
export function parseConfigz(body: string): KubeletConfigFacts {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (err) {
    throw new KubeletConfigError(`/configz did not answer JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc) || !isObject(doc.kubeletconfig)) throw new KubeletConfigError('/configz has no "kubeletconfig" object');
  return facts(doc.kubeletconfig);
}
