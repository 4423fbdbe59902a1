import { describe, expect, it } from 'vitest';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import { customColumnsRows, parseCustomColumns } from './custom-columns';
import { NOT_SELECTED } from './pod-table';

const pod = {
  metadata: { name: 'cart-0', labels: { app: 'cart' } },
  status: { podIP: '10.0.0.7', containerStatuses: [{ name: 'a', ready: true }, { name: 'b', ready: false }] },
};

describe("kubectl's -o custom-columns", () => {
  it('prints a column per HEADER:PATH, several values joined by commas, <none> for none', () => {
    const columns = parseCustomColumns('NAME:.metadata.name,IP:{.status.podIP},READY:.status.containerStatuses[*].ready,NODE:.spec.nodeName,LABELS:.metadata.labels');
    expect(customColumnsRows([pod], columns)).toEqual([
      ['NAME', 'IP', 'READY', 'NODE', 'LABELS'],
      ['cart-0', '10.0.0.7', 'true,false', '<none>', '{"app":"cart"}'],
    ]);
  });

  it('shows <masked>, not <none>, for a column the mask left out', () => {
    const mask = parseFieldMask('metadata.name');
    expect(customColumnsRows([applyFieldMask(pod, mask)], parseCustomColumns('NAME:.metadata.name,IP:.status.podIP'), mask)[1]).toEqual(['cart-0', NOT_SELECTED]);
  });

  it.each(['', 'NAME', ':.metadata.name', 'NAME:'])('refuses %j with an example', (spec) => {
    expect(() => parseCustomColumns(spec)).toThrow(/\.metadata\.name/);
  });
});
