/**
 * The flight recorder's capture of why a container ended: when a pod's status shows an instance that ended
 * while the node was recorded (a restart, a failed pod), the end of that instance's log is read from the
 * node's files and written to the recording as a LOG line (crash-log.ts). Bounded per capture and per
 * recording (lines and bytes); captures run one at a time, so a crash loop across many pods never floods
 * the node's connection. What could not be captured is written too, saying why.
 */
import type { ContainerLogs } from '../logs/container-logs';
import { parsePodDirName } from '../logs/pod-log-layout';
import type { PodObject } from '../pod/pod-tree';
import type { CrashLog, CrashLogBounds } from './crash-log';
import { endedInstances, type EndedInstance } from './ended-instances';

/** The node's log files as the recorder reaches them; undefined when this source has none. */
export type CrashLogFiles = () => Promise<{ logs: ContainerLogs; logsDir: string } | undefined>;

export interface InstanceTail {
  records: Buffer;
  lines: number;
  truncated: boolean;
}

/** The end of one instance's log as raw CRI records: at most `lines` records and `bytes` bytes, newest kept. */
export async function readInstanceTail(logs: ContainerLogs, target: Parameters<ContainerLogs['read']>[0], lines: number, bytes: number): Promise<InstanceTail> {
  const records: Buffer[] = [];
  // One more than asked says whether the log held more before.
  for await (const w of logs.read(target, { tailLines: lines + 1, includeRotated: true })) {
    const l = w.line;
    records.push(Buffer.concat([Buffer.from(`${l.timestamp} ${l.stream} ${l.partial ? 'P' : 'F'} `), l.content, Buffer.from(l.partial ? '\n' : '')]));
  }
  let truncated = records.length > lines;
  let kept = records.slice(Math.max(0, records.length - lines));
  let size = kept.reduce((n, r) => n + r.length, 0);
  while (size > bytes && kept.length > 1) {
    size -= kept[0]!.length;
    kept = kept.slice(1);
    truncated = true;
  }
  const last = kept[0];
  if (last && size > bytes) {
    // One record larger than the whole allowance: its prefix and the end of its content, which says the most.
    const prefixEnd = nthSpace(last, 3) + 1;
    kept = [Buffer.concat([last.subarray(0, prefixEnd), last.subarray(last.length - Math.max(0, bytes - prefixEnd))])];
    truncated = true;
  }
  return { records: Buffer.concat(kept), lines: kept.length, truncated };
}

function nthSpace(b: Buffer, n: number): number {
  let i = -1;
  for (let k = 0; k < n; k++) i = b.indexOf(0x20, i + 1);
  return i;
}

export class CrashLogCapture {
  /** The ended instances already known, by pod uid: each is captured once. */
  private readonly known = new Map<string, Set<string>>();
  private usedLines = 0;
  private usedBytes = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly files: CrashLogFiles,
    private readonly bounds: CrashLogBounds,
    /** Writes the LOG line (the recording's clock stamps it); throws when the recording cannot take it. */
    private readonly write: (log: Omit<CrashLog, 'time'>) => void,
  ) {}

  /** A pod of the initial set: what ended before the recording started is not the recording's to explain. */
  baseline(pod: PodObject): void {
    const uid = uidOf(pod);
    if (uid) this.known.set(uid, new Set(endedInstances(pod).map((e) => e.containerID)));
  }

  /** A pod as it is now: an instance it shows ended for the first time is captured. */
  seen(pod: PodObject): void {
    const uid = uidOf(pod);
    if (!uid || this.bounds.lines <= 0) return;
    let known = this.known.get(uid);
    if (!known) this.known.set(uid, (known = new Set()));
    for (const e of endedInstances(pod)) {
      if (known.has(e.containerID)) continue;
      known.add(e.containerID);
      const meta = pod.metadata as PodObject;
      const who = { uid, namespace: String(meta.namespace ?? ''), name: String(meta.name ?? '') };
      this.chain = this.chain.then(() => this.capture(who, e)).catch(() => undefined);
    }
  }

  forget(uid: string): void {
    this.known.delete(uid);
  }

  /** Waits for the captures under way (the recording closes after them). */
  drain(): Promise<void> {
    return this.chain;
  }

  private async capture(who: { uid: string; namespace: string; name: string }, e: EndedInstance): Promise<void> {
    const base = { ...who, ...e };
    const miss = (missing: string) => this.write({ ...base, lines: 0, truncated: false, missing });
    const lines = Math.min(this.bounds.lines, this.bounds.totalLines - this.usedLines);
    const bytes = Math.min(this.bounds.bytes, this.bounds.totalBytes - this.usedBytes);
    if (lines <= 0 || bytes <= 0) return miss(`the recording's log allowance (${this.bounds.totalLines} lines, ${this.bounds.totalBytes} bytes) was used up`);
    const files = await this.files();
    if (!files) return miss("the node's log files could not be reached from this source");
    const parts = parsePodDirName(`${who.namespace}_${who.name}_${who.uid}`);
    if (!parts) return miss('the pod has a name or uid the kubelet could not have made a log folder of');
    const pod = { ...parts, path: `${files.logsDir}/${who.namespace}_${who.name}_${who.uid}` };
    let tail: InstanceTail;
    try {
      tail = await readInstanceTail(files.logs, { pod, container: e.container, instance: e.instance }, lines, bytes);
    } catch (err) {
      return miss((err as Error).message);
    }
    this.usedLines += tail.lines;
    this.usedBytes += tail.records.length;
    this.write({ ...base, records: tail.records, lines: tail.lines, truncated: tail.truncated });
  }
}

const uidOf = (pod: PodObject) => {
  const uid = (pod.metadata as PodObject | undefined)?.uid;
  return typeof uid === 'string' && uid ? uid : undefined;
};
