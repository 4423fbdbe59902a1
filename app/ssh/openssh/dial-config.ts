import { runSshG, type SshGOutput } from '../ssh-config-openssh';
import { destinationFlags, type OpenSshClient, type OpenSshDestination } from './openssh-client';

/**
 * What ssh_config says of each hop of one dial, as `ssh -G` evaluates it: one run per destination in the
 * dial, whoever asks (the node's label, its jump hosts, each master's settings), as each ssh run costs 0.1-0.3 s
 * of wall on a loaded machine and a node through a bastion asked five. Nothing is kept across dials: a re-dial
 * sees ssh_config as it is then (the user may have edited it).
 */
export type DialConfig = (d: OpenSshDestination) => Promise<SshGOutput>;

const argsOf = (d: OpenSshDestination) => [...destinationFlags(d), '--', d.destination];

/** `known`: the node's own `ssh -G`, when its session ran it just before this (its first) dial for the label. */
export function dialConfig(client: OpenSshClient, known?: { d: OpenSshDestination; config: SshGOutput }): DialConfig {
  const asked = new Map<string, Promise<SshGOutput>>();
  if (known) asked.set(JSON.stringify(argsOf(known.d)), Promise.resolve(known.config));
  return (d) => {
    const key = JSON.stringify(argsOf(d));
    let ask = asked.get(key);
    if (!ask) asked.set(key, (ask = runSshG(client.binary, argsOf(d), client.env)));
    // One answer for every asker: they only read it.
    return ask;
  };
}
