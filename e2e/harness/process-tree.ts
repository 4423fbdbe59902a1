import { readdirSync, readFileSync } from 'node:fs';

/** State and parent from /proc/<pid>/stat; the command name may contain spaces or ')', so parse after the last ')'. */
function statOf(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]) };
  } catch {
    return undefined; // exited while we were looking
  }
}

/** All live descendants of `root`, children before grandchildren. */
export function descendantsOf(root: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const ppid = statOf(pid)?.ppid;
    if (ppid === undefined) continue;
    const list = childrenOf.get(ppid) ?? [];
    list.push(pid);
    childrenOf.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [...(childrenOf.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(childrenOf.get(pid) ?? []));
  }
  return out;
}

/** A zombie counts as gone: in containers the adopting init may never reap orphaned sshd children. */
export function isAlive(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Resolves once none of `pids` is alive, or rejects naming the survivors after `timeoutMs`. */
export async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes ${alive.join(', ')} did not exit within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * SIGKILLs every descendant of `root`, leaving `root` itself. Each is stopped first, because a shell
 * that forks between listing and killing would otherwise leave an orphan re-parented to init.
 */
export async function killDescendants(root: number): Promise<void> {
  const frozen = new Set<number>();
  for (;;) {
    const fresh = descendantsOf(root).filter((p) => !frozen.has(p));
    if (fresh.length === 0) break;
    for (const p of fresh) {
      signal(p, 'SIGSTOP');
      frozen.add(p);
    }
  }
  for (const p of frozen) signal(p, 'SIGKILL');
  await waitForExit([...frozen], 5_000);
}
