import { useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { ContractError } from '../../app/contract/errors';
import type { NodeInfo } from '../../app/contract/nodes';
import type { Prompt, PromptAnswer } from '../../app/contract/prompts';
import { Modal } from './Modal';
import { errorText } from '../format/error-text';

/** Asks what the SSH connection needs: a host key decision, a passphrase, a password or login answers. */
export function PromptDialog(props: { bridge: Bridge; prompt: Prompt; node: NodeInfo | undefined; onDone: (id: string) => void }) {
  const { prompt } = props;
  const [values, setValues] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const nodeName = props.node?.label ?? prompt.nodeId;

  async function answer(a: PromptAnswer) {
    try {
      await props.bridge.request('prompts.answer', { promptId: prompt.id, answer: a });
      props.onDone(prompt.id);
    } catch (err) {
      // The question is gone (answered in another window, or the node was removed): nothing to answer any more.
      if (err instanceof ContractError && err.code === 'not-found') props.onDone(prompt.id);
      else setError(errorText(err));
    }
  }
  const cancel = () => void answer(prompt.kind === 'hostKey' || prompt.kind === 'kubeletCertificate' ? { kind: 'hostKey', decision: 'refuse' } : prompt.kind === 'keyboardInteractive' ? { kind: 'keyboardInteractive', responses: null } : { kind: 'secret', value: null });
  const errorLine = error && (
    <p className="form-error" role="alert">
      {error}
    </p>
  );

  if (prompt.kind === 'hostKey' || prompt.kind === 'kubeletCertificate') {
    const certificate = prompt.kind === 'kubeletCertificate';
    return (
      <Modal
        title={certificate ? "Unknown kubelet certificate" : 'Unknown host key'}
        onClose={cancel}
        footer={
          <>
            {errorLine}
            <button type="button" className="button" onClick={() => void answer({ kind: 'hostKey', decision: 'refuse' })}>
              Refuse
            </button>
            {/* The user's OpenSSH records what it accepts: offering "once" there would be a promise not kept. */}
            {!(prompt.kind === 'hostKey' && prompt.recordsAccepted) && (
              <button type="button" className="button" onClick={() => void answer({ kind: 'hostKey', decision: 'acceptOnce' })}>
                Accept once
              </button>
            )}
            <button type="button" className="button primary" onClick={() => void answer({ kind: 'hostKey', decision: 'acceptAndRemember' })}>
              Accept and remember
            </button>
          </>
        }
      >
        {certificate ? (
          <p>
            The kubelet on <strong>{nodeName}</strong> (127.0.0.1:{prompt.port} on {prompt.host}) presented a serving certificate Nodescope has not seen before, and no CA was given to check it against. Compare its fingerprint with{' '}
            <span className="mono">openssl x509 -noout -fingerprint -sha256 -in /var/lib/kubelet/pki/kubelet.crt</span> on the node.
          </p>
        ) : (
          <p>
            <strong>{nodeName}</strong> ({prompt.host}:{prompt.port}) presented a key Nodescope has not seen before. Compare its fingerprint with the one the node’s administrator gave you.
            {prompt.kind === 'hostKey' && prompt.recordsAccepted && ' Your OpenSSH records a key it accepts in your known_hosts, as ssh does on the terminal.'}
          </p>
        )}
        <dl className="facts">
          <dt>{certificate ? 'Certificate' : 'Key type'}</dt>
          <dd className="mono">{certificate ? 'TLS serving certificate, SHA-256' : prompt.keyType}</dd>
          <dt>Fingerprint</dt>
          <dd className="mono fingerprint" aria-label={certificate ? 'Certificate fingerprint' : 'Host key fingerprint'}>
            {prompt.fingerprint}
          </dd>
        </dl>
      </Modal>
    );
  }

  const questions =
    prompt.kind === 'keyboardInteractive'
      ? prompt.questions
      : [{ prompt: prompt.kind === 'passphrase' ? `Passphrase for ${prompt.keyPath}` : `Password for ${prompt.user}@${prompt.host}`, echo: false }];
  const submit = () =>
    void answer(prompt.kind === 'keyboardInteractive' ? { kind: 'keyboardInteractive', responses: questions.map((_, i) => values[i] ?? '') } : { kind: 'secret', value: values[0] ?? '' });
  const title = prompt.kind === 'passphrase' ? 'Key passphrase' : prompt.kind === 'password' ? 'Password' : prompt.name || 'Login';

  return (
    <Modal
      title={title}
      onClose={cancel}
      footer={
        <>
          {errorLine}
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="button primary" onClick={submit}>
            Continue
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p className="muted">
          {nodeName} needs this to log in. It is passed to SSH once and not stored.
          {prompt.kind === 'keyboardInteractive' && prompt.instructions && <span className="block">{prompt.instructions}</span>}
        </p>
        {'retryReason' in prompt && prompt.retryReason && (
          <p className="form-error" role="alert">
            {prompt.retryReason}
          </p>
        )}
        {questions.map((q, i) => (
          <label className="field" key={i}>
            <span className="field-label">{q.prompt}</span>
            <input
              type={q.echo ? 'text' : 'password'}
              data-autofocus={i === 0 || undefined}
              autoComplete="off"
              value={values[i] ?? ''}
              onChange={(e) => setValues(Object.assign([...values], { [i]: e.target.value }))}
            />
          </label>
        ))}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
