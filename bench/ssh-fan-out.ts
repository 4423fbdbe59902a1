/**
 * The baseline issue 26 sets for opening many nodes through a bastion: what an operator's shell does at best
 * with their own `ssh`, as Ansible's ssh connection does. One ControlMaster on the bastion (logged in first, so
 * the fan-out never races to create it), every node reached with `ProxyJump bastion` through that master, at
 * most `concurrency` at once, each running the smallest thing that proves the node is reached and its kubelet
 * socket is there (`test -S PATH`: a login, a session, a shell).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../app/ssh/remote-exec';
import { createConcurrencyLimit } from '../app/util/concurrency-limit';

export interface FanOutNode {
  /** The node's ssh_config alias (its ProxyJump names the bastion). */
  alias: string;
  /** Its kubelet socket as the node sees it. */
  socketPath: string;
}

/** Runs ssh to its end; rejects with what it said when it fails. */
function ssh(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn('ssh', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.once('error', reject);
    proc.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`ssh ${args.join(' ')} exited ${code}: ${stderr.trim()}`))));
  });
}

/**
 * Reaches every node as above and resolves with the wall time in ms, the bastion's master login included;
 * the master is ended before returning, so every call starts cold as Nodescope's openings do.
 */
export async function sshFanOut(sshConfig: string, bastion: string, nodes: FanOutNode[], concurrency: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'ns-fan-'));
  const config = join(dir, 'ssh_config');
  // ssh_config takes the first value it reads: the master settings for the bastion, then the user's own file.
  await writeFile(
    config,
    [`Host ${bastion}`, '  ControlMaster auto', `  ControlPath ${join(dir, '%C')}`, '  ControlPersist 60', 'Host *', `Include ${sshConfig}`, ''].join('\n'),
    { mode: 0o600 },
  );
  try {
    const limit = createConcurrencyLimit(concurrency);
    const t = performance.now();
    await ssh(['-F', config, '-N', '-f', '--', bastion]);
    await Promise.all(nodes.map((n) => limit.run(() => ssh(['-F', config, '-T', '--', n.alias, `test -S ${shellQuote(n.socketPath)}`]))));
    return performance.now() - t;
  } finally {
    await ssh(['-F', config, '-O', 'exit', '--', bastion]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
