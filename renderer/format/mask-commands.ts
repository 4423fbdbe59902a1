import type { NodeInfo } from '../../app/contract/nodes';

/** A shell word: single-quoted unless it is plainly safe. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * How `nodescope` reaches this source: the ssh destination and options, unix:SOCKET, or the snapshot or
 * recording file (the CLI opens it offline, mask and all). The demo node's socket is not known here.
 */
function sourceArgs(node: NodeInfo): string[] {
  const { spec } = node;
  switch (spec.kind) {
    case 'demo':
      return [];
    case 'unix':
      return [shellWord(`unix:${spec.socketPath}`)];
    case 'snapshot':
    case 'recording':
      return [shellWord(spec.file)];
    case 'ssh': {
      const args = [shellWord(spec.user ? `${spec.user}@${spec.host}` : spec.host)];
      if (spec.port) args.push('-p', String(spec.port));
      if (spec.identityFile) args.push('-i', shellWord(spec.identityFile));
      if (spec.jumpHost) args.push('-J', shellWord(spec.jumpHost));
      if (spec.socketPath) args.push('--socket', shellWord(spec.socketPath));
      if (spec.sudo) args.push('--sudo');
      return args;
    }
  }
}

/** The three ways the builder copies a mask (its canonical paths, comma-separated). */
export function maskCommands(mask: string, node: NodeInfo): { argument: string; metadata: string; command: string } {
  const argument = `--mask ${shellWord(mask)}`;
  return {
    argument,
    metadata: `x-kubernetes-fieldmask: ${mask}`,
    command: ['nodescope', 'pods', ...sourceArgs(node), argument].join(' '),
  };
}
