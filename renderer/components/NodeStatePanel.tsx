import type { NodeInfo } from '../../app/contract/nodes';
import type { describeNodeState } from '../format/node-state';

/** In place of the pods of a node that has none to show yet: its state, an error's cause, a way to connect. */
export function NodeStatePanel(props: { node: NodeInfo; state: ReturnType<typeof describeNodeState>; onConnect: () => void }) {
  const { node, state } = props;
  const phase = node.state.phase;
  return (
    <div className="node-state-panel">
      <span className={`dot big tone-${state.tone}`} aria-hidden="true" />
      {/* An error's cause can run to a paragraph (a changed host key names both keys, the file and the fix): body text, not a heading. */}
      <h2>{phase === 'error' ? 'Connection failed' : state.title}</h2>
      {node.state.phase === 'error' && <p className="state-cause">{node.state.cause}</p>}
      {state.detail && <p className="muted">{state.detail}</p>}
      {(phase === 'error' || phase === 'disconnected' || phase === 'reconnecting') && (
        <button type="button" className="button primary" onClick={props.onConnect}>
          {phase === 'reconnecting' ? 'Retry now' : 'Connect'}
        </button>
      )}
    </div>
  );
}
