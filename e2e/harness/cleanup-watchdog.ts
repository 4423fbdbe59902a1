import { spawn } from 'node:child_process';

/*
 * Runs detached and outlives the test process. When that process dies without calling stop()
 * (crash, SIGKILL, a worker torn down mid-test), it ends the sshd listeners named by the pid files
 * in `dir`, their sessions, and removes the sudoers rule, the temp dir, the temporary user and the
 * network namespaces.
 */
const SCRIPT = `
parent=$1; dir=$2; sudoers=$3; user=$4; shift 4
while kill -0 "$parent" 2>/dev/null; do sleep 1; done
for f in "$dir"/*/sshd.pid; do
  [ -f "$f" ] || continue
  pid=$(cat "$f")
  pkill -KILL -P "$pid" 2>/dev/null
  kill -TERM "$pid" 2>/dev/null
  kill -CONT "$pid" 2>/dev/null
done
rm -f "$sudoers"
rm -rf "$dir"
[ -n "$user" ] && userdel -r "$user" 2>/dev/null
for ns in "$@"; do ip netns del "$ns" 2>/dev/null; done
`;

export interface Watchdog {
  /** Ends the watchdog; called by a normal stop(), which cleans up itself. */
  cancel(): void;
}

/** `namespaces`: network namespaces to delete (after their sshds are gone). */
export function startCleanupWatchdog(dir: string, sudoersPath: string, temporaryUser = '', namespaces: string[] = []): Watchdog {
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'nodescope-harness-watchdog', String(process.pid), dir, sudoersPath, temporaryUser, ...namespaces], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return {
    cancel: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
