import type { NodeInfo } from '../../app/contract/nodes';
import { cliSourceOf } from '../../app/source/kinds/source-kinds';

/** A shell word: single-quoted unless it is plainly safe. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * How `nodescope` reaches this source, as its kind says: the ssh destination and options, unix:SOCKET, or
 * the snapshot or recording file (the CLI opens it offline, mask and all); none for the demo node.
 */
const sourceArgs = (node: NodeInfo): string[] => cliSourceOf(node.spec).map(shellWord);

/** The three ways the builder copies a mask (its canonical paths, comma-separated). */
export function maskCommands(mask: string, node: NodeInfo): { argument: string; metadata: string; command: string } {
  const argument = `--mask ${shellWord(mask)}`;
  return {
    argument,
    metadata: `x-kubernetes-fieldmask: ${mask}`,
    command: ['nodescope', 'pods', ...sourceArgs(node), argument].join(' '),
  };
}
