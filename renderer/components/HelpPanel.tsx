import { useEffect, useState } from 'react';
import { KEY_BINDINGS, keyLabel } from '../keys/key-bindings';
import { Modal } from './Modal';

/** The filter language (app/pod/view/filter-language.ts), as the user types it. */
const FILTER_TERMS: [term: string, meaning: string][] = [
  ['text', 'name, namespace, IP or status contains it'],
  ['ns:NAME', 'namespace'],
  ['phase:NAME', 'phase or kubectl status (Running, CrashLoopBackOff)'],
  ['node:NAME', 'node name'],
  ['owner:KIND or NAME', 'owner kind or name (owner:DaemonSet, owner:coredns)'],
  ['label:k=v  label:k!=v  label:k', 'label equals, differs, is present'],
  ['is:static  is:deleting  is:ready  is:notready  is:restarted', 'pod flags (is:notready leaves out Completed pods)'],
  ['probe:failed  probe:ok  probe:unknown  probe:none', "probes' last results (nodes read through REST)"],
  ['*  a,b', 'wildcard; alternatives (phase:Pending,Failed)'],
  ['-term', 'negates a term (-ns:kube-system)'],
  ['"two words"', 'keeps spaces in one term'],
];


/** What the filter box understands and what the keys do, k9s-style: one key away (?), readable without a mouse. */
export function HelpPanel(props: { onClose: () => void }) {
  // The element to give the focus back to (the table, the Help button) once the help is gone: not
  // before, while the modal dialog still makes the rest of the page inert.
  const [returnTo] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      if (returnTo instanceof HTMLElement) returnTo.focus();
    },
    [returnTo],
  );
  return (
    <Modal title="Filter and keys" onClose={props.onClose} wide>
      <div className="help-panel">
        <section aria-labelledby="help-filter">
          <h3 id="help-filter">Filter terms (all must match)</h3>
          <dl className="help-list">
            {FILTER_TERMS.map(([term, meaning]) => (
              <div key={term} className="contents">
                <dt className="mono">{term}</dt>
                <dd>{meaning}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="help-keys">
          <h3 id="help-keys">Keys</h3>
          <dl className="help-list">
            {KEY_BINDINGS.filter((b) => b.keys.length + (b.widgetKeys?.length ?? 0) > 0).map((b) => (
              <div key={b.help} className="contents">
                <dt>
                  {[...new Set([...b.keys, ...(b.widgetKeys ?? [])])].map((k) => (
                    <kbd key={k}>{keyLabel(k)}</kbd>
                  ))}
                </dt>
                <dd>{b.help}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </Modal>
  );
}
