/**
 * A simulated kubelet journal for node info: a file of `journalctl -o short-iso` lines that grows a line at
 * each write (the kubelet's routine, or a given message), and stand-ins for the two programs Nodescope
 * runs to read it, `systemctl show` (the kubelet unit, loaded and running) and `journalctl -u UNIT [-f] -n N
 * --no-pager -o short-iso` (its last lines, and with -f each new one). A stand-in refuses any other
 * argument, so a test sees exactly the command Nodescope runs.
 */
import { appendFileSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodePrograms } from '../node-info/node-commands';
import { shellQuote } from '../ssh/remote-exec';

export interface SimJournal {
  /** The journal's file. */
  file: string;
  /** The stand-ins, for NodePrograms. */
  programs: Pick<NodePrograms, 'journalctl' | 'systemctl'>;
  /** Appends one kubelet line (this message, or the next of the kubelet's routine). */
  write(message?: string): void;
}

const ROUTINE = [
  'I1128 kubelet.go:2468] "SyncLoop (PLEG): event for pod" event={"Type":"ContainerStarted"}',
  'I1128 kubelet_getters.go:218] "Pod status updated" status="Running"',
  'E1128 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" with CrashLoopBackOff: \\"back-off 5m0s restarting failed container\\""',
  'I1128 kuberuntime_container.go:779] "Killing container with a grace period" gracePeriod=30',
  'W1128 reflector.go:561] watch of *v1.ConfigMap ended with: too old resource version',
];

/** As journalctl's short-iso prints a time: seconds and a numeric zone. */
const shortIso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+0000`;

/** A journal in `dir` (private to the test), `lines` lines long to start with. */
export function startSimJournal(options: { dir: string; node?: string; lines?: number }): SimJournal {
  const node = options.node ?? 'sim-node';
  const file = join(options.dir, 'kubelet.journal');
  let n = 0;
  const line = (message: string) => `${shortIso(Date.now())} ${node} kubelet[812]: ${message}\n`;
  const next = () => ROUTINE[n++ % ROUTINE.length]!;
  writeFileSync(file, Array.from({ length: options.lines ?? 20 }, () => line(next())).join(''), { mode: 0o600 });

  const script = (name: string, body: string) => {
    const path = join(options.dir, name);
    writeFileSync(path, `#!/bin/sh\n# ${name} as Nodescope runs it, over the simulated journal (app/sim/sim-journal.ts).\n${body}\n`, { mode: 0o700 });
    chmodSync(path, 0o700);
    return path;
  };
  const journalctl = script(
    'journalctl',
    [
      'unit= follow= n=10',
      'while [ $# -gt 0 ]; do',
      '  case "$1" in',
      '    -u) unit=$2; shift 2 ;;',
      '    -n) n=$2; shift 2 ;;',
      '    -f) follow=1; shift ;;',
      '    --no-pager) shift ;;',
      '    -o) [ "$2" = short-iso ] || { echo "journalctl (simulated): output $2 unsupported" >&2; exit 1; }; shift 2 ;;',
      '    *) echo "journalctl (simulated): unexpected argument $1" >&2; exit 1 ;;',
      '  esac',
      'done',
      '[ "$unit" = kubelet ] || { echo "-- No entries --"; exit 0; }',
      `[ -n "$follow" ] && exec tail -n "$n" -F ${shellQuote(file)}`,
      `exec tail -n "$n" ${shellQuote(file)}`,
    ].join('\n'),
  );
  const systemctl = script(
    'systemctl',
    [
      '[ "$1" = show ] || { echo "systemctl (simulated): only show" >&2; exit 1; }',
      'shift; shift',
      'first=1',
      'for unit in "$@"; do',
      '  [ -n "$first" ] || echo',
      '  first=',
      '  if [ "$unit" = kubelet ]; then printf "Id=kubelet.service\\nLoadState=loaded\\nActiveState=active\\nSubState=running\\n"',
      '  else printf "Id=%s.service\\nLoadState=not-found\\nActiveState=inactive\\nSubState=dead\\n" "$unit"; fi',
      'done',
    ].join('\n'),
  );

  return { file, programs: { journalctl, systemctl }, write: (message) => appendFileSync(file, line(message ?? next())) };
}
