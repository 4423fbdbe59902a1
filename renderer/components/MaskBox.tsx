import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';
import type { MaskCheck } from '../../app/contract/requests';
import { MaskBuilder } from './MaskBuilder';
import { useDebounced } from './use-model';
import { useShortcuts } from '../keys/use-shortcuts';
import { errorText } from '../format/error-text';

/**
 * The field mask of the current node: checked as you type (mask.validate), applied with Enter
 * (nodes.setMask, which re-lists and re-watches with it). Empty = full pods.
 */
export function MaskBox({ bridge, node }: { bridge: Bridge; node: NodeInfo }) {
  const props = { bridge, nodeId: node.id, applied: node.mask };
  const [building, setBuilding] = useState(false);
  const [text, setText] = useState(props.applied);
  const [check, setCheck] = useState<MaskCheck | null>(null);
  const [applyError, setApplyError] = useState<string | null>(null);
  const settled = useDebounced(text, 150);
  useShortcuts({ fields: () => setBuilding(true) });

  useEffect(() => {
    setText(props.applied);
    setApplyError(null);
  }, [props.applied, props.nodeId]);
  useEffect(() => {
    let current = true;
    if (!settled.trim()) {
      setCheck(null);
      return;
    }
    props.bridge.request('mask.validate', { mask: settled }).then(
      (c) => current && setCheck(c),
      (err: unknown) => current && setCheck({ ok: false, error: errorText(err) }),
    );
    return () => {
      current = false;
    };
  }, [settled, props.bridge]);

  const invalid = check !== null && !check.ok && settled === text;
  const dirty = text.trim() !== props.applied;
  async function apply() {
    if (invalid) return;
    setApplyError(null);
    try {
      const result = await props.bridge.request('nodes.setMask', { nodeId: props.nodeId, mask: text.trim() });
      if (!result.ok) setApplyError(result.error);
    } catch (err) {
      setApplyError(errorText(err));
    }
  }
  const message = applyError ?? (invalid && check && !check.ok ? check.error : null);

  return (
    <div className="mask-box">
      <input
        className="mono"
        value={text}
        spellCheck={false}
        placeholder="Field mask: metadata.name,status.phase"
        aria-label="Field mask"
        aria-invalid={message ? true : undefined}
        aria-describedby="mask-message"
        onChange={(e) => {
          // A refusal is about the text that was applied; it would otherwise hide the live check of the new text.
          setText(e.target.value);
          setApplyError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void apply();
          if (e.key === 'Escape') setText(props.applied);
        }}
      />
      {dirty && !invalid && (
        <button type="button" className="button small" onClick={() => void apply()}>
          {text.trim() ? 'Apply mask' : 'Clear mask'}
        </button>
      )}
      <button type="button" className="button small" onClick={() => setBuilding(true)} aria-keyshortcuts="m">
        Fields…
      </button>
      {props.applied && !dirty && (
        <span className="tag tag-mask" title={`Field mask ${props.applied}. ${honouredText(node.maskHonoured)}`}>
          masked{node.maskHonoured === true ? ' by kubelet' : node.maskHonoured === false ? ' here' : ''}
        </span>
      )}
      {building && <MaskBuilder bridge={bridge} node={node} onClose={() => setBuilding(false)} />}
      <span id="mask-message" className={message ? 'mask-message field-error' : 'mask-message'} role={message ? 'alert' : undefined}>
        {message ?? ''}
      </span>
    </div>
  );
}

/** Whether the kubelet applied the mask: the pods are the same either way, only the traffic differs. */
function honouredText(honoured: boolean | null): string {
  if (honoured === true) return 'The kubelet applied it: only the selected fields crossed the network.';
  if (honoured === false) return 'This kubelet ignores field masks: whole pods are fetched and the mask is applied here. What you see is the same.';
  return 'Sent to the kubelet and applied here as pods arrive.';
}
