/** The window with no source yet: the three ways to get one. */
export function Welcome(props: { onAddNode: () => void; onStartDemo: () => void; onOpenFiles: () => void }) {
  return (
    <div className="welcome">
      <h1>Inspect a node’s pods, live</h1>
      <p className="muted">Nodescope reaches the kubelet on a node over SSH and shows what it runs, as it changes.</p>
      <div className="welcome-actions">
        <button type="button" className="button primary" onClick={props.onAddNode}>
          Add node…
        </button>
        <button type="button" className="button" onClick={props.onStartDemo}>
          Start demo node
        </button>
        <button type="button" className="button" onClick={props.onOpenFiles}>
          Open snapshot…
        </button>
      </div>
      <p className="muted small">or drop a snapshot or recording file on this window</p>
    </div>
  );
}
