/**
 * A pod's containers as the fleet matrix holds them (sharedContainers of containerAspects), worked out once
 * per template rather than per pod: found again by the wire bytes of the fields they are read from
 * (selectedBytes), which every replica of a template sends alike. A replica then costs a walk over its bytes
 * and a compare, not a decode of its containers and their canonical texts. Exact: pods whose containers
 * differ in any byte of those fields are worked out apart, and a pod's own names in its env (withRunNames)
 * are replaced per pod.
 */
import { parseFieldMask } from '../mask/field-mask';
import { decodePodFields } from '../pod/decode-fields';
import type { PodTree } from '../pod/pod-tree';
import { ByteKey, selectedBytes } from '../pod/selected-bytes';
import { WireFormatError } from '../pod/wire-reader';
import { BytesKeyedValues } from '../util/bytes-keyed-values';
import type { SharedValues } from '../util/shared-values';
import { CONTAINER_READ_PATHS, sentContainerAspects, withRunNames, type ContainerAspects } from '../fleet/workload-drift';
import { sharedContainers } from '../fleet/workload-matrix';

interface Template {
  /** The containers as sent, before any pod's own names are replaced. */
  sent: ContainerAspects;
  /** As sharedContainers holds them, for the pods whose env holds none of their own names (most). */
  plain?: ContainerAspects;
}

export class TemplateContainers {
  private readonly mask = parseFieldMask(CONTAINER_READ_PATHS.join(','));
  private readonly key = new ByteKey();
  private readonly templates = new BytesKeyedValues<Template>();
  private readonly share = (text: string) => this.shared.share(text, text);

  constructor(private readonly shared: SharedValues) {}

  /**
   * `bytes`: the pod's wire bytes, as received (no field mask); `pod`: its tree, with at least its name and
   * owner (its per-run names); `label` names it in a decode error, as decodePodFields's does.
   */
  of(bytes: Uint8Array, pod: PodTree, label: string): ContainerAspects {
    let template: Template | undefined;
    let keyed = true;
    try {
      selectedBytes(bytes, this.mask, this.key);
      template = this.templates.get(this.key.view());
    } catch (err) {
      // Malformed where the key is read: the decode below says where (or reads what it needs).
      if (!(err instanceof WireFormatError)) throw err;
      keyed = false;
    }
    if (!template) {
      template = { sent: sentContainerAspects(decodePodFields(bytes, this.mask, label).pod, this.share) };
      if (keyed) this.templates.set(this.key.view(), template);
    }
    const aspects = withRunNames(template.sent, pod, this.share);
    if (aspects !== template.sent) return sharedContainers(aspects, this.shared);
    return (template.plain ??= sharedContainers(template.sent, this.shared));
  }
}
