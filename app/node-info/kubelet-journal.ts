/**
 * The kubelet's systemd unit and its journal. Which unit runs the kubelet depends on the distribution
 * (container-logs.md §5): `systemctl show` of the known names tells which one is loaded; the journal's
 * tail is read with `journalctl -o short-iso` and split into time, identifier and message.
 */

/** The units that run a kubelet, in the order they are tried: kubeadm, k3s, rke2, microk8s. */
export const KUBELET_UNITS = ['kubelet', 'k3s', 'k3s-agent', 'rke2-server', 'rke2-agent', 'snap.microk8s.daemon-kubelite'] as const;

export interface UnitState {
  unit: string;
  loadState: string;
  activeState?: string;
  subState?: string;
}

/**
 * `systemctl show --property=Id,LoadState,ActiveState,SubState UNIT...`: one block of `Key=value` lines
 * per unit, blank-line separated, in the order asked. The first loaded and active unit wins, else the first loaded one.
 */
export function pickKubeletUnit(text: string, asked: readonly string[]): UnitState | undefined {
  const units: UnitState[] = [];
  text.split(/\n\s*\n/).forEach((block, i) => {
    const kv = new Map(block.split('\n').map((l) => l.split('=')).filter((p) => p.length >= 2).map(([k, ...v]) => [k!.trim(), v.join('=').trim()]));
    const unit = asked[i];
    if (!unit || !kv.has('LoadState')) return;
    const u: UnitState = { unit, loadState: kv.get('LoadState')! };
    if (kv.get('ActiveState')) u.activeState = kv.get('ActiveState')!;
    if (kv.get('SubState')) u.subState = kv.get('SubState')!;
    units.push(u);
  });
  const loaded = units.filter((u) => u.loadState === 'loaded');
  return loaded.find((u) => u.activeState === 'active') ?? loaded[0];
}

export interface JournalLine {
  /** As journalctl wrote it, e.g. 2026-11-27T21:00:00+0000. Absent on journalctl's own `-- ... --` notes. */
  time?: string;
  host?: string;
  /** The syslog identifier, e.g. kubelet. */
  identifier?: string;
  pid?: number;
  message: string;
}

/** One `-o short-iso` line: `TIME HOST IDENT[PID]: MESSAGE`; anything else is kept whole as the message. */
export function parseJournalLine(line: string): JournalLine {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)) (\S+) ([^\s[:]+)(?:\[(\d+)\])?: ?(.*)$/.exec(line);
  if (!m) return { message: line };
  const out: JournalLine = { time: m[1]!, host: m[2]!, identifier: m[3]!, message: m[5]! };
  // Digits past 2^53 are no real pid (the contract refuses them too): left out, not sent rounded.
  const pid = Number(m[4]);
  if (m[4] && Number.isSafeInteger(pid)) out.pid = pid;
  return out;
}

export function parseJournal(text: string): JournalLine[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map(parseJournalLine);
}
