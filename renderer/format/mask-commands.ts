import type { NodeInfo } from '../../app/contract/nodes';

/** A shell word: single-quoted unless it is plainly safe. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** How `nodescope` reaches this node: the ssh destination and options, or --local for the demo's socket. */
function nodeArgs(node: NodeInfo): string[] {
  const { spec } = node;
  if (node.simulated) return spec.socketPath ? ['--local', shellWord(spec.socketPath)] : [];
  const args = [shellWord(spec.user ? `${spec.user}@${spec.host}` : spec.host)];
  if (spec.port) args.push('-p', String(spec.port));
  if (spec.identityFile) args.push('-i', shellWord(spec.identityFile));
  if (spec.jumpHost) args.push('-J', shellWord(spec.jumpHost));
  if (spec.socketPath) args.push('--socket', shellWord(spec.socketPath));
  if (spec.sudo) args.push('--sudo');
  return args;
}

/** The three ways the builder copies a mask (its canonical paths, comma-separated). */
export function maskCommands(mask: string, node: NodeInfo): { argument: string; metadata: string; command: string } {
  const argument = `--mask ${shellWord(mask)}`;
  return {
    argument,
    metadata: `x-kubernetes-fieldmask: ${mask}`,
    command: ['nodescope', 'pods', ...nodeArgs(node), argument].join(' '),
  };
}
