import { useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';
import { errorText } from '../format/error-text';
import type { ParsedFilter } from '../../app/pod/view/filter-language';
import { blindnessText, maskBlindness } from '../../app/pod/view/mask-blind-terms';

/**
 * Under the filter box, when the node's field mask leaves out a field a term reads (owner:, label:,
 * is:static): which field, and a button that adds it to the node's mask, so the term can match.
 */
export function MaskBlindNote(props: { bridge: Bridge; node: NodeInfo; filter: ParsedFilter }) {
  const [problem, setProblem] = useState<string | null>(null);
  const blind = maskBlindness(props.filter, props.node.maskPaths);
  if (!blind) return null;
  const add = async () => {
    setProblem(null);
    try {
      const result = await props.bridge.request('nodes.setMask', { nodeId: props.node.id, mask: [...props.node.maskPaths, ...blind.paths].join(',') });
      if (!result.ok) setProblem(result.error);
    } catch (err) {
      setProblem(errorText(err));
    }
  };
  return (
    <span className="field-error filter-error" role="alert">
      {blindnessText(blind)}{' '}
      <button type="button" className="button small" onClick={() => void add()}>
        Add {blind.paths.length === 1 ? blind.paths[0] : 'them'} to the mask
      </button>
      {problem && ` ${problem}`}
    </span>
  );
}
