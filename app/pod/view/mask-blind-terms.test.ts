import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter-language';
import { blindnessText, maskBlindness } from './mask-blind-terms';

const NAMES = ['metadata.name', 'metadata.namespace'];

describe('filter terms a field mask leaves blind', () => {
  it('names each term that reads a field the mask left out, and the fields to add', () => {
    expect(maskBlindness(parseFilter('owner:DaemonSet'), NAMES)).toEqual({ terms: ['owner:daemonset'], paths: ['metadata.ownerReferences'] });
    expect(maskBlindness(parseFilter('label:app=web is:static ns:kube-system'), NAMES)).toEqual({ terms: ['label:app=web', 'is:static'], paths: ['metadata.labels', 'metadata.annotations'] });
    expect(maskBlindness(parseFilter('-is:restarted'), NAMES)!.paths).toEqual(['status.containerStatuses.restartCount', 'status.initContainerStatuses.restartCount']);
  });

  it('says nothing without a mask, when the mask keeps the field, or for terms that read other fields', () => {
    expect(maskBlindness(parseFilter('owner:DaemonSet'), [])).toBeNull();
    expect(maskBlindness(parseFilter('owner:DaemonSet'), [...NAMES, 'metadata.ownerReferences.kind'])).toBeNull();
    expect(maskBlindness(parseFilter('owner:DaemonSet'), ['metadata'])).toBeNull();
    expect(maskBlindness(parseFilter('web ns:default'), NAMES)).toBeNull();
  });

  it('says which field and why, in one sentence', () => {
    expect(blindnessText(maskBlindness(parseFilter('owner:DaemonSet'), NAMES)!)).toBe(
      "owner:daemonset needs metadata.ownerReferences, which this node's field mask leaves out: no pod can match it.",
    );
  });
});
