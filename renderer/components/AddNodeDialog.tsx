import { useEffect, useMemo, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { AddNodeSpecSchema, type NodeInfo, type SshHost } from '../../app/contract/nodes';
import { Modal } from './Modal';
import { errorText } from '../format/error-text';

interface Fields {
  label: string;
  host: string;
  user: string;
  port: string;
  identityFile: string;
  jumpHost: string;
  socketPath: string;
  sudo: boolean;
}
const EMPTY: Fields = { label: '', host: '', user: '', port: '', identityFile: '', jumpHost: '', socketPath: '', sudo: false };

/** The form as a NodeSpec; blank fields are left out so ~/.ssh/config and defaults apply. */
function toSpec(f: Fields): unknown {
  const spec: Record<string, unknown> = { kind: 'ssh', host: f.host };
  for (const key of ['label', 'user', 'identityFile', 'jumpHost', 'socketPath'] as const) if (f[key].trim()) spec[key] = f[key];
  if (f.port.trim()) spec.port = /^\d+$/.test(f.port.trim()) ? Number(f.port) : f.port;
  if (f.sudo) spec.sudo = true;
  return spec;
}

export function AddNodeDialog(props: { bridge: Bridge; onClose: () => void; onAdded: (node: NodeInfo) => void }) {
  const [hosts, setHosts] = useState<SshHost[] | null>(null);
  const [hostsError, setHostsError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);

  useEffect(() => {
    props.bridge.request('sshHosts.list', {}).then(setHosts, (err: unknown) => setHostsError(errorText(err)));
  }, [props.bridge]);

  const parsed = useMemo(() => AddNodeSpecSchema.safeParse(toSpec(fields)), [fields]);
  const fieldErrors = useMemo(() => {
    const errors: Partial<Record<keyof Fields, string>> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as keyof Fields] ??= issue.message;
    return errors;
  }, [parsed]);

  const shownHosts = (hosts ?? []).filter((h) => `${h.alias} ${h.hostName ?? ''} ${h.user ?? ''}`.toLowerCase().includes(query.toLowerCase()));

  function pick(host: SshHost) {
    setFields({ ...EMPTY, host: host.alias, socketPath: fields.socketPath, sudo: fields.sudo });
  }

  async function submit() {
    setTouched(true);
    if (!parsed.success) return;
    setBusy(true);
    setSubmitError(null);
    try {
      props.onAdded(await props.bridge.request('nodes.add', parsed.data));
    } catch (err) {
      setSubmitError(errorText(err));
      setBusy(false);
    }
  }

  const field = (key: Exclude<keyof Fields, 'sudo'>, label: string, placeholder: string, hint?: string) => {
    const error = touched || fields[key] ? fieldErrors[key] : undefined;
    const noteId = `add-node-${key}-note`;
    return (
      <label className="field">
        <span className="field-label">{label}</span>
        <input
          value={fields[key]}
          placeholder={placeholder}
          // Named by the label alone; the hint or error is its description.
          aria-label={label}
          aria-describedby={error || hint ? noteId : undefined}
          aria-invalid={error ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
        />
        {error ? (
          <span id={noteId} className="field-error">
            {error}
          </span>
        ) : hint ? (
          <span id={noteId} className="field-hint">
            {hint}
          </span>
        ) : null}
      </label>
    );
  };

  return (
    <Modal
      title="Add node"
      wide
      onClose={props.onClose}
      footer={
        <>
          {submitError && (
            <p className="form-error" role="alert">
              {submitError}
            </p>
          )}
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => void submit()}>
            {busy ? 'Adding…' : 'Add and connect'}
          </button>
        </>
      }
    >
      <div className="add-node">
        <section className="host-picker" aria-label="Hosts from SSH config">
          <input className="search" type="search" placeholder="Search ~/.ssh/config hosts" aria-label="Search SSH config hosts" value={query} onChange={(e) => setQuery(e.target.value)} />
          <ul role="listbox" aria-label="SSH config hosts">
            {hosts === null && !hostsError && <li className="muted">Reading ~/.ssh/config…</li>}
            {hostsError && <li className="field-error">{hostsError}</li>}
            {hosts?.length === 0 && <li className="muted">No Host entries in ~/.ssh/config. Type a host on the right.</li>}
            {shownHosts.map((h) => (
              <li
                key={h.alias}
                role="option"
                aria-selected={fields.host === h.alias}
                tabIndex={0}
                className="host-option"
                onClick={() => pick(h)}
                onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && pick(h)}
              >
                <span className="mono">{h.alias}</span>
                <span className="muted small">
                  {[h.user && `${h.user}@`, h.hostName ?? h.alias, h.port && `:${h.port}`].filter(Boolean).join('')}
                  {h.proxyJump && ` via ${h.proxyJump}`}
                </span>
              </li>
            ))}
          </ul>
        </section>
        <form
          className="node-form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {field('host', 'Host', 'alias, name or address', 'An alias uses its ~/.ssh/config settings')}
          <div className="field-row">
            {field('user', 'User', 'from SSH config')}
            {field('port', 'Port', '22')}
          </div>
          {field('identityFile', 'Identity file', '~/.ssh/id_ed25519')}
          {field('jumpHost', 'Jump host', 'user@bastion:22')}
          {field('socketPath', 'Pods API socket', 'found on the node (/var/lib/kubelet/pods-api/pods-api.sock)')}
          <label className="check">
            <input type="checkbox" checked={fields.sudo} onChange={(e) => setFields({ ...fields, sudo: e.target.checked })} />
            <span>
              Use sudo to reach the socket <span className="muted">(sudo -n socat on the node)</span>
            </span>
          </label>
          {field('label', 'Display name', 'defaults to the host')}
          <button type="submit" hidden />
        </form>
      </div>
    </Modal>
  );
}
