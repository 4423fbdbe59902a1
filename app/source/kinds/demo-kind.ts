import type { SourceKindInfo } from './source-kind';

/** The simulated kubelet inside Nodescope: started on demand, never remembered. */
export const DEMO_KIND: SourceKindInfo<'demo'> = {
  kind: 'demo',
  defaultLabel: () => 'Demo node',
  describe: () => 'Simulated kubelet running inside Nodescope',
  userAdded: false,
  offline: false,
  simulated: true,
  // Its simulated containers write logs; it has no node of its own to describe.
  capabilities: ['logs'],
  group: () => '',
  // Its socket is private to the app: the CLI has nothing to name.
  cliSource: () => [],
  // There is one demo node.
  sameSource: () => true,
  sameMachine: () => true,
  addAgain: 'startDemo',
};
