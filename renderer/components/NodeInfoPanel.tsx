import { useEffect, useState, type ReactNode } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { CONFIGZ_FROM, type NodeContextPart, type NodeContextRead, type NodeContextView } from '../../app/contract/node-context';
import type { NodeInfo } from '../../app/contract/nodes';
import { useShortcuts } from '../keys/use-shortcuts';
import { Modal } from './Modal';
import { NodeJournal } from './NodeJournal';

/** The toolbar's Node info button (and its key, i): opens the panel for this node. */
export function NodeInfoButton(props: { bridge: Bridge; node: NodeInfo }) {
  const [open, setOpen] = useState(false);
  useShortcuts({ nodeInfo: open ? undefined : () => setOpen(true) });
  return (
    <>
      <button type="button" className="button" aria-keyshortcuts="i" title="The kubelet, its configuration, the runtime and the journal of this node" onClick={() => setOpen(true)}>
        Node info
      </button>
      {open && <NodeInfoPanel bridge={props.bridge} node={props.node} onClose={() => setOpen(false)} />}
    </>
  );
}

type Loaded = { state: 'reading' } | { state: 'failed'; message: string } | ({ state: 'done' } & NodeContextRead);

/**
 * What `nodescope node` shows, read when opened (node.info): each part with its state, where it was read
 * from or why it was not. A value not read shows as not read, never as zero or blank.
 */
export function NodeInfoPanel(props: { bridge: Bridge; node: NodeInfo; onClose: () => void }) {
  const { bridge, node } = props;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'reading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'reading' });
    bridge.request('node.info', { nodeId: node.id }).then(
      (r) => current && setLoaded({ state: 'done', ...r }),
      (err: unknown) => current && setLoaded({ state: 'failed', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      current = false;
    };
  }, [bridge, node.id, round]);
  const footer = (
    <button type="button" className="button" disabled={loaded.state === 'reading'} onClick={() => setRound((r) => r + 1)}>
      Read again
    </button>
  );
  return (
    <Modal title={`Node info: ${node.label}`} onClose={props.onClose} wide footer={footer}>
      {loaded.state === 'reading' && <p role="status">Reading the node…</p>}
      {loaded.state === 'failed' && <p role="alert">{loaded.message}</p>}
      {loaded.state === 'done' && loaded.status === 'unavailable' && (
        <p role="alert">
          {loaded.message} {loaded.nextStep}
        </p>
      )}
      {loaded.state === 'done' && loaded.status === 'read' && <NodeContextParts context={loaded.context} bridge={bridge} nodeId={node.id} />}
    </Modal>
  );
}

/** One part: its title, read (from where) or not read (why, and what to do), and its value when read. */
function PartSection<P extends NodeContextPart>(props: { title: string; part: P; children: (value: Extract<P, { value: unknown }>['value']) => ReactNode }) {
  const { part } = props;
  return (
    <section aria-label={props.title} className="node-info-part">
      <h3>
        {props.title} {'value' in part ? <span className="tag">read</span> : <span className="tag tone-text-bad">not read</span>}
      </h3>
      {'value' in part ? (
        <>
          <p className="muted">From {part.from}</p>
          {props.children(part.value as Extract<P, { value: unknown }>['value'])}
        </>
      ) : (
        <p role="note">
          Not read: {part.error}
          {part.nextStep ? ` ${part.nextStep}` : ''}
        </p>
      )}
    </section>
  );
}

/** Label and value pairs; a value absent is left out, not shown blank. */
function Facts(props: { facts: [string, string | number | undefined][] }) {
  const shown = props.facts.filter((f): f is [string, string | number] => f[1] !== undefined);
  return (
    <dl>
      {shown.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function NodeContextParts({ context: c, bridge, nodeId }: { context: NodeContextView; bridge: Bridge; nodeId: string }) {
  return (
    <>
      <PartSection title="Kubelet version" part={c.version}>
        {(v) => <p>{v}</p>}
      </PartSection>
      <PartSection title="Kubelet health" part={c.health}>
        {(h) => (
          <p>
            {h.healthy ? 'Healthy' : 'Unhealthy'} (HTTP {h.status}): {h.body.trim() || '(empty answer)'}
          </p>
        )}
      </PartSection>
      <PartSection title="Kubelet process" part={c.process}>
        {(p) => <Facts facts={[['PID', p.pid], ['Binary', p.binary], ['Config file', p.configPath], ['Runtime endpoint', p.runtimeEndpoint], ['--feature-gates', p.featureGatesFlag]]} />}
      </PartSection>
      <PartSection title="Feature gates" part={c.featureGates}>
        {(g) => (
          <>
            <p>
              PodsAPI: {g.podsApi.enabled === undefined ? 'unknown' : g.podsApi.enabled ? 'on' : 'off'} ({g.podsApi.why})
            </p>
            {Object.keys(g.gates).length > 0 ? <Facts facts={Object.entries(g.gates).map(([k, on]) => [k, on ? 'on' : 'off'])} /> : <p>No gate set: every gate has its default.</p>}
          </>
        )}
      </PartSection>
      <PartSection title="Configuration" part={c.config}>
        {(cfg) => (
          <>
            <p>{'from' in c.config && c.config.from === CONFIGZ_FROM ? 'The effective configuration the kubelet runs with.' : 'The file the kubelet started with: its flags may override it.'}</p>
            <pre className="node-info-config">{JSON.stringify(cfg, null, 2)}</pre>
          </>
        )}
      </PartSection>
      <PartSection title="Container runtime" part={c.runtime}>
        {(r) => <Facts facts={[['Runtime', r.name], ['Version', r.version], ['CRI API', r.apiVersion], ['crictl', r.crictlVersion], ['Endpoint', r.endpoint]]} />}
      </PartSection>
      <PartSection title="Kubelet journal" part={c.journal}>
        {(j) => <NodeJournal bridge={bridge} nodeId={nodeId} journal={j} />}
      </PartSection>
      <PartSection title="Runtime containers against the kubelet's pods" part={c.containers}>
        {(d) => (
          <>
            <p>
              The runtime has {d.runtimeContainers} containers; the kubelet's pods name {d.kubeletContainers}.
            </p>
            {d.runtimeOnly.length === 0 && d.kubeletOnly.length === 0 && <p>They agree.</p>}
            {d.runtimeOnly.length > 0 && (
              <ul aria-label="Only the runtime has">
                {d.runtimeOnly.map((r) => (
                  <li key={r.id}>{`${r.podNamespace && r.podName ? `${r.podNamespace}/${r.podName} ` : ''}${r.name} (${r.id.slice(0, 13)}${r.state ? `, ${r.state}` : ''})`}</li>
                ))}
              </ul>
            )}
            {d.kubeletOnly.length > 0 && (
              <ul aria-label="Only the kubelet names">
                {d.kubeletOnly.map((k) => (
                  <li key={k.id}>{`${k.podNamespace}/${k.podName} ${k.container}${k.previous ? ' (previous instance)' : ''}`}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </PartSection>
    </>
  );
}
