import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';
import { isOffline } from '../../app/source/kinds/source-kinds';
import { useDebounced } from './use-model';
import { useShortcuts } from '../keys/use-shortcuts';
import { RecordDialog } from './RecordDialog';
import { timeText, timeTitle } from '../format/time-text';

/** "Snapshot · worker-1 · pods.json" / "Recording · …": an offline source says what it is and where it came from. */
export function OfflineTag({ node }: { node: NodeInfo }) {
  if (node.state.phase !== 'offline') return null;
  return (
    <span className="tag tag-offline" title={isOffline(node.spec) ? node.spec.file : undefined}>
      offline {node.spec.kind} · {node.state.origin}
    </span>
  );
}

/** A recording's time axis: drag to see the pod set, and each pod's history, as they were then. */
export function RecordingScrubber(props: { bridge: Bridge; node: NodeInfo; onError: (err: unknown) => void }) {
  const timeline = props.node.state.phase === 'offline' ? props.node.state.timeline : undefined;
  const [at, setAt] = useState(timeline?.at ?? 0);
  const settled = useDebounced(at, 120);
  const { bridge, node, onError } = props;
  useEffect(() => {
    if (timeline && settled !== timeline.at) bridge.request('sources.setTime', { nodeId: node.id, at: settled }).catch(onError);
    // Only a move of the slider asks; the node's own updates set the slider below.
  }, [settled]);
  if (!timeline) return null;
  const seconds = Math.round((at - timeline.start) / 1000);
  return (
    <div className="scrubber">
      <span className="muted small mono" title={timeTitle(timeline.start)}>
        {timeText(timeline.start)}
      </span>
      <input
        type="range"
        aria-label="Time in the recording"
        aria-valuetext={`${timeText(at)} (+${seconds}s)`}
        min={timeline.start}
        max={timeline.end}
        step={Math.max(1, Math.round((timeline.end - timeline.start) / 1000))}
        value={at}
        onChange={(e) => setAt(Number(e.target.value))}
      />
      <span className="muted small mono" title={timeTitle(timeline.end)}>
        {timeText(timeline.end)}
      </span>
      <strong className="mono small" title={timeTitle(at)}>
        {timeText(at)} (+{seconds}s)
      </strong>
    </div>
  );
}

/** Start or stop writing a live node's watch to a recording file. */
export function RecordButton(props: { bridge: Bridge; node: NodeInfo; canPickFiles: boolean; defaultDir: string; onError: (err: unknown) => void; onDone: (text: string) => void }) {
  const { bridge, node } = props;
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      props.onError(err);
    } finally {
      setBusy(false);
    }
  };
  const stop = () =>
    void run(async () => {
      const done = await bridge.request('recording.stop', { nodeId: node.id });
      props.onDone(`Recording saved: ${done.path} (${done.events} events)`);
    });
  // Without a save dialog (browser mode), the user names the file in a dialog of ours.
  const [naming, setNaming] = useState(false);
  const start = () =>
    props.canPickFiles ? void run(async () => void (await bridge.request('recording.start', { nodeId: node.id }))) : setNaming(true);
  // r does what the button does, when the button could be pressed.
  const recordable = node.state.phase === 'live' && !node.rowsOnly;
  useShortcuts({ record: busy || node.state.phase === 'offline' ? undefined : node.recordingTo ? stop : recordable ? start : undefined });
  if (node.state.phase === 'offline') return null;
  if (node.recordingTo) {
    return (
      <button type="button" className="button" disabled={busy} title={`Recording to ${node.recordingTo}`} aria-keyshortcuts="r" onClick={stop}>
        ■ Stop recording
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={busy || !recordable}
        title={
          node.rowsOnly
            ? 'This node keeps rows only (more nodes are open than "Keep rows only above" in Settings): its pods\' versions are not received to record'
            : node.state.phase === 'live'
              ? 'Record every change of this node to a file'
              : 'A node can be recorded once it is live'
        }
        aria-keyshortcuts="r"
        onClick={start}
      >
        ● Record
      </button>
      {naming && (
        <RecordDialog
          nodeLabel={node.label}
          defaultDir={props.defaultDir}
          onStart={async (path) => void (await bridge.request('recording.start', { nodeId: node.id, path }))}
          onClose={() => setNaming(false)}
        />
      )}
    </>
  );
}
