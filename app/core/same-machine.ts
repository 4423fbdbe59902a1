import type { AddNodeSpec } from '../contract';

/**
 * Whether an edited node still reaches the same machine, so its pod history is still that node's.
 * Over SSH the machine is its host and port as seen from its jump host (a new user, socket or API reaches
 * the same kubelet differently, but 10.0.0.5 behind another bastion is usually another machine); a socket on
 * this machine is this machine, whatever its path. Anything else is another node, whose pods would show as
 * the old node's deleted ones.
 */
export function sameMachine(before: AddNodeSpec, after: AddNodeSpec): boolean {
  if (before.kind === 'unix' || after.kind === 'unix') return before.kind === after.kind;
  return before.host === after.host && (before.port ?? 22) === (after.port ?? 22) && (before.jumpHost ?? '') === (after.jumpHost ?? '');
}
