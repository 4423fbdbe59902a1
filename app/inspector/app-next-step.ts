import { featureGateNextStep } from '../kubelet/kubelet-error';

/**
 * In the app a node's connection settings are not edited in place (there are no node settings): they
 * are changed by removing the node and adding it again. The phrases here say so, for the messages
 * that tell the user to change one.
 */
export const READD_NODE = 'remove the node and add it again with the Add node dialog';
export const readdWith = (field: string) => `remove the node and add it again with ${field} in the Add node dialog`;

/**
 * The next step the app shows for a kubelet or SSH error. Next steps written for the CLI name its flags
 * (--socket); a wrong or missing socket is given here in the add-node dialog's socket field instead.
 */
export function appNextStep(err: { code: string; nextStep: string }): string {
  const socketField = readdWith('the right path in its “Pods API socket” field');
  if (err.code === 'SOCKET_MISSING') return featureGateNextStep(socketField);
  if (err.code === 'UNIMPLEMENTED') return `Check that the socket is the kubelet's Pods API socket (not the PodResources one): ${socketField}.`;
  return err.nextStep;
}
