import { CONFIGZ_FROM, type NodeContextView } from '../../app/contract/node-context';
import type { NodeInfo } from '../../app/contract/nodes';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { useKeyListener } from '../keys/use-shortcuts';
import { mountForTest, testCase } from '../testing/test-page';
import { NodeInfoButton } from './NodeInfoPanel';

// The Node info button and panel on the fake bridge (?case=read|configz|unavailable): a node whose kubelet, gates
// and journal were read (and whose journal can be followed), and whose healthz, config and runtime were not; the
// same with its configuration and gates from the kubelet's /configz; or a kind of source with no node to ask.
const started = { time: '2026-11-27T21:00:00+0000', identifier: 'kubelet', pid: 812, message: 'Started kubelet' };
/** The journal follows the page started and those it cancelled; push writes a line to the one running. */
const follows = { started: 0, cancelled: 0, push: null as ((message: string) => void) | null };
(window as unknown as { journalFollows: typeof follows }).journalFollows = follows;
const context: NodeContextView = {
  process: { from: 'pgrep -a -o -x kubelet', value: { pid: 812, binary: '/usr/bin/kubelet', configPath: '/var/lib/kubelet/config.yaml' } },
  version: { from: '/usr/bin/kubelet --version', value: 'v1.37.1' },
  health: { error: 'connect ECONNREFUSED 127.0.0.1:10248', nextStep: 'Is the kubelet running? Its healthzPort may be set elsewhere.' },
  config: { error: 'cat /var/lib/kubelet/config.yaml: Permission denied', nextStep: 'Tick “Use sudo” in the node’s settings.' },
  featureGates: { from: '--feature-gates', value: { gates: { PodsAPI: true }, podsApi: { enabled: true, why: 'PodsAPI=true in --feature-gates' } } },
  runtime: { error: 'crictl: not found' },
  journal: {
    from: 'journalctl -u kubelet',
    value: { unit: { unit: 'kubelet', loadState: 'loaded', activeState: 'active', subState: 'running' }, lines: [started] },
  },
  containers: { error: 'crictl ps was not read (crictl: not found)' },
};
/** A node read through the kubelet's REST API: its effective configuration and gates from /configz. */
const fromConfigz: NodeContextView = {
  ...context,
  config: { from: CONFIGZ_FROM, value: { maxPods: 110, featureGates: { PodsAPI: true } } },
  featureGates: { from: CONFIGZ_FROM, value: { gates: { PodsAPI: true }, podsApi: { enabled: true, why: "PodsAPI=true in the kubelet's feature gates" } } },
};
const node: NodeInfo = {
  id: 'n1',
  label: 'worker-1',
  simulated: false,
  spec: { kind: 'ssh', host: 'worker-1' },
  state: { phase: 'live', since: 0 },
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount: 0,
};
const bridge = createFakeBridge({
  'node.info': () =>
    testCase === 'unavailable'
      ? { status: 'unavailable', message: 'Node information is not available for this kind of source: Demo is the simulated demo node, which has no node of its own.', nextStep: 'Open a node over SSH.' }
      : { status: 'read', context: testCase === 'configz' ? fromConfigz : context },
  // As the host's: the tail first, then each line written, until the page cancels it.
  'node.journalFollow': (_input, call) =>
    new Promise(() => {
      follows.started++;
      call.progress({ lines: [started] });
      follows.push = (message) => call.progress({ lines: [{ time: '2026-11-27T21:00:05+0000', identifier: 'kubelet', pid: 812, message }] });
      call.signal.addEventListener('abort', () => {
        follows.cancelled++;
        follows.push = null;
      });
    }),
});

function Page() {
  useKeyListener();
  return <NodeInfoButton bridge={bridge} node={node} />;
}

mountForTest(<Page />);
