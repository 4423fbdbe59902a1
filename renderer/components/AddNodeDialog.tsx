import { useEffect, useMemo, useState } from 'react';
import { AddNodeSpecSchema, type ApiChoice, type NodeInfo, type SshHost, type SshTransportChoice } from '../../app/contract/nodes';
import type { AppModel } from '../state/app-model';
import { Modal } from './Modal';
import { errorText } from '../format/error-text';
import { sameMachine } from '../../app/source/kinds/source-kinds';
import { EMPTY, fieldOf, fromSpec, toSpec, type Fields, type TextField } from './node-form';

/** A node being edited: its id and settings; the dialog saves them back through the model (nodes.update). */
export interface EditedNode {
  nodeId: string;
  spec: Extract<NodeInfo['spec'], { kind: 'ssh' | 'unix' }>;
  onSaved: (result: Awaited<ReturnType<AppModel['updateNode']>>) => void;
}

const API_CHOICES: { value: ApiChoice; label: string; hint: string }[] = [
  { value: 'auto', label: 'Auto', hint: 'the Pods API socket when the node has one, else the REST API' },
  { value: 'pods', label: 'Pods API', hint: 'Kubernetes 1.36+ (gRPC watch on the kubelet socket)' },
  { value: 'rest', label: 'REST API', hint: 'any kubelet: /pods polled, with CPU, memory and probes' },
];

const SSH_CHOICES: { value: SshTransportChoice | ''; label: string; hint: string }[] = [
  { value: '', label: 'Default', hint: 'your OpenSSH where ssh is installed (not on Windows), else built-in' },
  { value: 'openssh', label: 'OpenSSH', hint: 'your own ssh: all of ssh_config holds (ProxyCommand, certificates, ControlMaster); its questions are asked here' },
  { value: 'builtin', label: 'Built-in', hint: "Nodescope's own SSH client" },
];

/** Adds a node, or with `editing` changes one's settings in place (nothing changes until saved). */
export function AddNodeDialog(props: { model: AppModel; onClose: () => void; onAdded?: (node: NodeInfo) => void; editing?: EditedNode }) {
  const [hosts, setHosts] = useState<SshHost[] | null>(null);
  const [hostsError, setHostsError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const { editing } = props;
  const [fields, setFields] = useState<Fields>(() => (editing ? fromSpec(editing.spec) : EMPTY));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);

  // The file the app reads: its --ssh-config one when started with it, named as the user gave it.
  const [configFile, setConfigFile] = useState('SSH config');
  const bridge = props.model.bridge;
  useEffect(() => {
    bridge.request('sshHosts.list', {}).then(setHosts, (err: unknown) => setHostsError(errorText(err)));
    bridge.request('app.info', {}).then((info) => setConfigFile(info.sshConfigFile), () => undefined);
  }, [bridge]);

  const parsed = useMemo(() => AddNodeSpecSchema.safeParse(toSpec(fields)), [fields]);
  const fieldErrors = useMemo(() => {
    const errors: Partial<Record<keyof Fields | 'rest', string>> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) errors[fieldOf(issue.path)] ??= issue.message;
    return errors;
  }, [parsed]);

  // Bastions last: an operator adds the nodes behind one, rarely the bastion itself.
  const shownHosts = (hosts ?? [])
    .filter((h) => `${h.alias} ${h.hostName ?? ''} ${h.user ?? ''}`.toLowerCase().includes(query.toLowerCase()))
    .sort((a, b) => Number(a.jumpHostFor !== undefined) - Number(b.jumpHostFor !== undefined));

  function pick(host: SshHost) {
    // Only the SSH fields come from the host entry; how the kubelet is read stays as chosen.
    setFields({ ...fields, via: 'ssh', host: host.alias, user: '', port: '', identityFile: '', jumpHost: '', label: '' });
  }

  async function submit() {
    setTouched(true);
    if (!parsed.success) return;
    setBusy(true);
    setSubmitError(null);
    try {
      if (editing) editing.onSaved(await props.model.updateNode(editing.nodeId, parsed.data));
      else props.onAdded?.(await props.model.addNode(parsed.data));
    } catch (err) {
      setSubmitError(errorText(err));
      setBusy(false);
    }
  }

  /** One of a few settings, as radio buttons each with its hint. */
  const choice = <K extends 'ssh' | 'api'>(key: K, legend: string, choices: { value: Fields[K]; label: string; hint: string }[]) => (
    <fieldset className="api-choice">
      <legend className="field-label">{legend}</legend>
      {choices.map((c) => (
        <label key={c.value || 'default'} className="check" title={c.hint}>
          <input type="radio" name={key} value={c.value} checked={fields[key] === c.value} onChange={() => setFields({ ...fields, [key]: c.value })} />
          <span>
            {c.label} <span className="muted small">{c.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );

  const field = (key: TextField, label: string, placeholder: string, hint?: string) => {
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
      title={editing ? 'Edit node' : 'Add node'}
      wide
      onClose={props.onClose}
      footer={
        <>
          {editing && parsed.success && !sameMachine(editing.spec, parsed.data) && (
            <p className="field-hint" role="note">
              Another host or port is another machine: saving clears this node's pod history.
            </p>
          )}
          {submitError && (
            <p className="form-error" role="alert">
              {submitError}
            </p>
          )}
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => void submit()}>
            {editing ? (busy ? 'Saving…' : 'Save and reconnect') : busy ? 'Adding…' : 'Add and connect'}
          </button>
        </>
      }
    >
      <div className="add-node">
        <section className="host-picker" aria-label="Hosts from SSH config">
          <input className="search" type="search" placeholder={`Search ${configFile} hosts`} title={`Hosts of ${configFile}`} aria-label="Search SSH config hosts" value={query} onChange={(e) => setQuery(e.target.value)} />
          <ul role="listbox" aria-label="SSH config hosts">
            {hosts === null && !hostsError && <li className="muted">Reading {configFile}…</li>}
            {hostsError && <li className="field-error">{hostsError}</li>}
            {hosts?.length === 0 && <li className="muted">No Host entries in {configFile}. Type a host on the right.</li>}
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
                <span className="mono">
                  {h.alias}
                  {h.jumpHostFor !== undefined && (
                    <span className="tag" title={`${h.jumpHostFor} other ${h.jumpHostFor === 1 ? 'host reaches its node' : 'hosts reach their nodes'} through this one (ProxyJump)`}>
                      jump host
                    </span>
                  )}
                </span>
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
          <fieldset className="api-choice">
            <legend className="field-label">The kubelet's socket is</legend>
            {(
              [
                ['ssh', 'On a node, over SSH', 'the usual case'],
                ['unix', 'On this machine', 'the simulator (nodescope sim), or Nodescope run on the node itself'],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="check">
                <input type="radio" name="via" value={value} checked={fields.via === value} onChange={() => setFields({ ...fields, via: value })} />
                <span>
                  {label} <span className="muted small">{hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {fields.via === 'unix' ? (
            field('socketPath', 'Pods API socket', '/run/nodescope/sim.sock', 'Its full path; a socket only root may open needs Nodescope run as root')
          ) : (
            <>
            {field('host', 'Host', 'alias, name or address', `An alias uses its settings in ${configFile}`)}
            <div className="field-row">
              {field('user', 'User', 'from SSH config')}
              {field('port', 'Port', '22')}
            </div>
            {field('identityFile', 'Identity file', '~/.ssh/id_ed25519')}
            {field('jumpHost', 'Jump host', 'user@bastion:22')}
            {choice('ssh', 'SSH client', SSH_CHOICES)}
            {choice('api', 'Kubelet API', API_CHOICES)}
            {fields.api !== 'rest' && field('socketPath', 'Pods API socket', 'found on the node (/var/lib/kubelet/pods-api/pods-api.sock)')}
            {fields.api !== 'pods' && (
              <fieldset className="rest-options">
                <legend className="field-label">REST API</legend>
                <div className="field-row">
                  {field('kubeletPort', 'Kubelet port', fields.readOnly ? '10255' : '10250', "on the node's 127.0.0.1, reached through SSH")}
                  {field('pollIntervalS', 'Poll every (s)', '2')}
                </div>
                <label className="check">
                  <input type="checkbox" checked={fields.readOnly} onChange={(e) => setFields({ ...fields, readOnly: e.target.checked })} />
                  <span>
                    Read-only port <span className="muted">(plain HTTP, no credentials; off on most clusters)</span>
                  </span>
                </label>
                {!fields.readOnly && (
                  <>
                    {field('tokenFile', 'Token file', '/path/to/token or node:/path', 'A bearer token, read from this file when connecting; node:/path reads it on the node with sudo -n cat')}
                    {field('clientCert', 'Client certificate', 'or a certificate (PEM): /path or node:/path')}
                    {field('clientKey', 'Client key', "the certificate's key (PEM): /path or node:/path")}
                    {field('caFile', 'Kubelet CA file', 'without it, the certificate is asked about and pinned', 'The PEM file of the CA that signs the kubelet serving certificate')}
                  </>
                )}
                {(touched || fields.tokenFile || fields.clientCert || fields.clientKey) && fieldErrors.rest && <p className="field-error">{fieldErrors.rest}</p>}
              </fieldset>
            )}
            {field('podResourcesSocket', 'PodResources socket', 'off (e.g. /var/lib/kubelet/pod-resources/kubelet.sock)', 'Devices, exclusive CPUs and memory per container; root-only, so non-root users need sudo')}
            <label className="check">
              <input type="checkbox" checked={fields.sudo} onChange={(e) => setFields({ ...fields, sudo: e.target.checked })} />
              <span>
                Use sudo to reach the sockets <span className="muted">(sudo -n socat on the node)</span>
              </span>
            </label>
            </>
          )}
          <div className="field-row">
            {field('label', 'Display name', 'defaults to the host')}
            {field('group', 'Group', 'none (e.g. workers)', 'The sidebar lists nodes group by group')}
          </div>
          <button type="submit" hidden />
        </form>
      </div>
    </Modal>
  );
}
