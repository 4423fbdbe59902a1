/**
 * Which fields identify an element of a pod's lists, so a diff matches elements by who they are, not
 * where they stand: one inserted container is one added container, not every later one changed.
 *
 * Taken from the Kubernetes API's own merge keys (patchMergeKey / listMapKeys in k8s.io/api/core/v1 and
 * meta/v1), keyed by the list's JSON field name, which in the pod schema means the same list wherever it
 * appears (containers, initContainers and ephemeralContainers share Container's keys). Lists the API
 * keeps atomic but whose elements have a natural identity (tolerations, managedFields, readinessGates)
 * get one too. Lists not named here (args, command, finalizers, projected sources...) fall back to
 * position.
 */
const IDENTITY: Readonly<Record<string, readonly string[]>> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  containerStatuses: ['name'],
  initContainerStatuses: ['name'],
  ephemeralContainerStatuses: ['name'],
  conditions: ['type'],
  volumes: ['name'],
  env: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  ports: ['containerPort', 'protocol'],
  ownerReferences: ['uid'],
  tolerations: ['key', 'operator', 'effect'],
  imagePullSecrets: ['name'],
  hostAliases: ['ip'],
  podIPs: ['ip'],
  hostIPs: ['ip'],
  readinessGates: ['conditionType'],
  resourceClaims: ['name'],
  resourceClaimStatuses: ['name'],
  schedulingGates: ['name'],
  topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable'],
  resizePolicy: ['resourceName'],
  allocatedResourcesStatus: ['name'],
  claims: ['name'],
  options: ['name'],
  managedFields: ['manager', 'operation', 'subresource'],
};

/** Defaults the API server fills in for a key field, so an element without it still matches its twin. */
const KEY_DEFAULTS: Readonly<Record<string, string>> = { protocol: 'TCP' };

/** The identity fields of the list held by `field`, or undefined when its elements go by position. */
export function identityFields(field: string): readonly string[] | undefined {
  return Object.hasOwn(IDENTITY, field) ? IDENTITY[field] : undefined;
}

export interface ElementIdentity {
  /** Compared between the two sides: every key field, defaults filled in. */
  key: string;
  /** Shown in paths: the parts that tell elements apart (`ports[containerPort=53,protocol=UDP]`, `ports[containerPort=80]`). */
  shown: [string, string][];
}

/**
 * An element's identity, or undefined when it has none (not an object, or no key field set at all).
 * Missing parts of a composite key count as empty, or as their API default.
 */
export function identityOf(element: unknown, fields: readonly string[]): ElementIdentity | undefined {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const record = element as Record<string, unknown>;
  let any = false;
  const parts = fields.map((f): [string, string] => {
    const value = record[f];
    if (value !== undefined && value !== null && value !== '') any = true;
    return [f, value === undefined || value === null || value === '' ? (KEY_DEFAULTS[f] ?? '') : String(value)];
  });
  if (!any) return undefined;
  const shown = parts.filter(([f, v], i) => i === 0 || (v !== '' && KEY_DEFAULTS[f] !== v));
  return { key: JSON.stringify(parts.map(([, v]) => v)), shown };
}
