import { useEffect, useRef, useState } from 'react';
import { AddNodeSpecSchema, MAX_NODES_AT_ONCE, type HostListExpansion, type NodeInfo } from '../../app/contract/nodes';
import { errorText } from '../format/error-text';
import type { AppModel } from '../state/app-model';
import { Modal } from './Modal';

/** The settings every host of the list shares; blank ones come from ~/.ssh/config. */
interface Shared {
  group: string;
  user: string;
  jumpHost: string;
  socketPath: string;
}

/** How long the list waits after the last keystroke before it is expanded again. */
const EXPAND_DELAY_MS = 250;

/**
 * Adds several nodes in one step: ssh_config host patterns (`worker-*`) and hosts, one per line, typed,
 * pasted or read from a file; the hosts they come to are shown before anything is added.
 */
export function AddManyDialog(props: { model: AppModel; onClose: () => void; onAdded: (nodes: NodeInfo[]) => void }) {
  const [text, setText] = useState('');
  const [shared, setShared] = useState<Shared>({ group: '', user: '', jumpHost: '', socketPath: '' });
  const [expansion, setExpansion] = useState<HostListExpansion | null>(null);
  const [expandError, setExpandError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!text.trim()) {
      setExpansion(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      props.model.bridge.request('sshHosts.expand', { text }).then(
        (e) => current && (setExpansion(e), setExpandError(null)),
        (err: unknown) => current && setExpandError(errorText(err)),
      );
    }, EXPAND_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, props.model.bridge]);

  const hosts = expansion?.hosts ?? [];
  const specs = hosts.map((host) => {
    const spec: Record<string, unknown> = { kind: 'ssh', host };
    for (const key of ['group', 'user', 'jumpHost', 'socketPath'] as const) if (shared[key].trim()) spec[key] = shared[key].trim();
    return AddNodeSpecSchema.safeParse(spec);
  });
  const specError = specs.find((s) => !s.success)?.error?.issues[0];
  const tooMany = hosts.length > MAX_NODES_AT_ONCE;

  async function submit() {
    if (hosts.length === 0 || specError || tooMany) return;
    setBusy(true);
    setSubmitError(null);
    try {
      props.onAdded(await props.model.addNodes(specs.flatMap((s) => (s.success ? [s.data] : []))));
    } catch (err) {
      setSubmitError(errorText(err));
      setBusy(false);
    }
  }

  const sharedField = (key: keyof Shared, label: string, placeholder: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input value={shared[key]} placeholder={placeholder} aria-label={label} spellCheck={false} autoComplete="off" onChange={(e) => setShared({ ...shared, [key]: e.target.value })} />
    </label>
  );

  return (
    <Modal
      title="Add several nodes"
      wide
      onClose={props.onClose}
      footer={
        <>
          {(submitError || specError) && (
            <p className="form-error" role="alert">
              {submitError ?? `${String(specError!.path[0])}: ${specError!.message}`}
            </p>
          )}
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={busy || hosts.length === 0 || Boolean(specError) || tooMany} onClick={() => void submit()}>
            {busy ? 'Adding…' : hosts.length === 1 ? 'Add 1 node' : `Add ${hosts.length} nodes`}
          </button>
        </>
      }
    >
      <div className="add-many">
        <section className="add-many-input">
          <label className="field">
            <span className="field-label">Hosts or ssh_config patterns, one per line</span>
            <textarea
              className="mono host-lines"
              aria-label="Hosts or patterns, one per line"
              placeholder={'worker-*\nworker-*,!worker-9\ndb-1.example.internal\n# comments are fine'}
              rows={9}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <div className="field-row">
            <button type="button" className="button" onClick={() => fileRef.current?.click()}>
              Read from file…
            </button>
            <input
              ref={fileRef}
              type="file"
              hidden
              aria-label="Host list file"
              data-testid="host-list-file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) file.text().then((t) => setText((old) => (old.trim() ? `${old.trimEnd()}\n${t}` : t)), (err: unknown) => setExpandError(errorText(err)));
              }}
            />
          </div>
          {sharedField('group', 'Group', 'e.g. workers (optional)')}
          <div className="field-row">
            {sharedField('user', 'User', 'from SSH config')}
            {sharedField('jumpHost', 'Jump host', 'from SSH config')}
          </div>
          {sharedField('socketPath', 'Pods API socket', 'found on each node')}
        </section>
        <section className="add-many-preview" aria-label="Hosts to add">
          <div className="field-label">
            {expansion === null ? 'The hosts appear here' : `${hosts.length} ${hosts.length === 1 ? 'host' : 'hosts'}`}
            {tooMany && <span className="field-error"> — at most {MAX_NODES_AT_ONCE} at once</span>}
          </div>
          {expandError && (
            <p className="field-error" role="alert">
              {expandError}
            </p>
          )}
          {expansion && expansion.problems.length > 0 && (
            <ul className="host-problems" role="alert">
              {expansion.problems.map((p) => (
                <li key={`${p.line}-${p.text}`} className="field-error">
                  Line {p.line}: {p.reason}
                </li>
              ))}
            </ul>
          )}
          <ul className="host-preview mono" role="list" aria-label="Hosts that will be added">
            {hosts.slice(0, 500).map((h) => (
              <li key={h}>{h}</li>
            ))}
            {hosts.length > 500 && <li className="muted">and {hosts.length - 500} more</li>}
          </ul>
        </section>
      </div>
    </Modal>
  );
}
