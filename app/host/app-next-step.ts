import { featureGateNextStep } from '../kubelet/kubelet-error';

/**
 * In the app a node's connection settings are changed in place with Edit… (on the node in the sidebar
 * and above its pods), which keeps its mask and history. The phrases here say so, for the messages
 * that tell the user to change one.
 */
export const EDIT_NODE = 'edit the node (Edit… on it in the sidebar or above its pods)';
export const editNodeWith = (field: string) => `edit the node (Edit… on it in the sidebar or above its pods) and save it with ${field}`;

/**
 * The next step the app shows for a kubelet or SSH error. Next steps written for the CLI name its flags
 * (--socket); a wrong or missing socket is given here in the add-node dialog's socket field instead.
 */
export function appNextStep(err: { code: string; nextStep: string }): string {
  const socketField = editNodeWith('the right path in its “Pods API socket” field');
  if (err.code === 'SOCKET_MISSING') return featureGateNextStep(socketField);
  if (err.code === 'UNIMPLEMENTED') return `Check that the socket is the kubelet's Pods API socket (not the PodResources one): ${socketField}.`;
  return err.nextStep;
}
