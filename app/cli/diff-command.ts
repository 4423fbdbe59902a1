/**
 * `nodescope diff A B`: what changed between two sources (SSH nodes, unix:SOCKET, snapshot files, a recording
 * at a time as FILE@TIME), for every pod or for one pod on each side. Exit status as diff(1): 0 the same,
 * 1 different, and the usual codes for errors.
 */
import { diffPod, diffPodSets, shownChanges, type PodSetDiff } from '../diff/diff-pods';
import { alignSides } from '../diff/align-sides';
import { podSetDiffJson, podSetPatchLines, type DiffSideInfo } from '../diff/diff-output';
import { podSetDiffText } from '../diff/diff-text';
import { kubectlJsonValue } from '../pod/kubectl-json-value';
import { podRef } from '../diff/match-pods';
import { activeRules, IgnorePatternError, parsePattern, type NoiseSettings } from '../diff/noise-rules';
import type { JsonValue } from '../diff/diff-values';
import { formatFieldMask } from '../mask/field-mask';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { connectToSource } from './kubelet-connection';
import { noteMask, warnUnknownFields, writeStdout } from './node-command';
import { nodeOptionsHelp, parseNodeArgs, type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { openOffline } from './offline-source';
import { resolveSource } from './pod-source';
import { terminalText } from './terminal-text';


const OUTPUTS = ['text', 'json', 'patch'] as const;

const USAGE = `usage: nodescope diff A B [--uid UID | --pod NAMESPACE/NAME[..NAMESPACE/NAME]] [--ignore PATH]... [--no-default-ignores] [-o text|json|patch]

Compares the pods of two sources: each an ssh destination, unix:SOCKET, a snapshot file, or a recording at a
time (FILE@TIME, TIME an RFC 3339 time or +5m from its start; a recording alone means as it ended).
--local PATH stands for A as unix:PATH: nodescope diff --local pods.sock B.
Pods are paired by UID, a static pod with its mirror by the kubernetes.io/config.mirror annotation, then by
namespace/name; list elements by who they are (containers by name, conditions by type, ...).

diff:
  --uid UID                  compare the pod with this UID on each side
  --pod NS/NAME[..NS/NAME]   compare this pod on each side, or NS/A on the left with NS/B on the right
  --ignore PATH              also ignore differences at PATH (may repeat), e.g. spec.containers.image,
                             spec.containers[name=app].env, **.startedAt, metadata.labels["app.kubernetes.io/version"]
  --no-default-ignores       show what is hidden by default: managedFields and resourceVersion always, and
                             between two different pods their UID, name, container IDs, IPs and timestamps
  -o text                    the changes by path, grouped by pod (default; coloured on a terminal)
  -o json                    the structured form (docs/diff-format.md)
  -o patch                   NDJSON, one line per pod that differs, with its RFC 6902 JSON Patch
  --mask PATHS               read both sides through this field mask: only those fields are compared
exit status: 0 no differences, 1 differences, 2 bad usage or input, 3 unreachable, 4 kubelet error`;

const EXTRA = {
  uid: { type: 'string' },
  pod: { type: 'string' },
  ignore: { type: 'string', multiple: true },
  'no-default-ignores': { type: 'boolean', default: false },
} as const;

const help = () => `${USAGE}\n\n${nodeOptionsHelp(OUTPUTS).replace(/^ {2}--at TIME.*\n/m, '')}`;

interface Side {
  info: DiffSideInfo;
  pods: JsonValue[];
}

/** `rec.ndjson@+5m` or `rec.ndjson@2026-11-23T10:00:00Z`: a recording at a time. `user@host` is not one. */
function splitAt(text: string): { source: string; at?: string } {
  const m = /^(.+)@(\+\S+|\d{4}-\d\d-\d\dT\S+)$/.exec(text);
  return m ? { source: m[1]!, at: m[2]! } : { source: text };
}

async function loadSide(text: string, opts: NodeCommandOptions): Promise<Side> {
  const { source: given, at } = splitAt(text);
  const source = resolveSource(given, undefined);
  const info: DiffSideInfo = { source: text, ...(opts.mask ? { mask: formatFieldMask(opts.mask) } : {}) };
  if (source.kind === 'file') {
    const offline = await openOffline(source.path, { from: 'end', ...(at !== undefined ? { at } : {}), ...(opts.mask ? { mask: opts.mask } : {}) });
    return { info, pods: offline.pods.map((p) => kubectlJsonValue(p.pod)) };
  }
  if (at !== undefined) throw new UsageError(`${text}: @TIME is for recordings; a live node has only its present`);
  const conn = await connectToSource(source, opts);
  try {
    const list = await conn.client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    return { info, pods: list.pods.map((p) => kubectlJsonValue(p.pod)) };
  } finally {
    await conn.close();
  }
}

/** The one pod `which` names on a side, or a usage error naming the side. */
function pick(side: Side, which: { uid: string } | { namespace: string; name: string }): JsonValue {
  const found = side.pods.find((p) => {
    const ref = podRef(p);
    return 'uid' in which ? ref.uid === which.uid : ref.namespace === which.namespace && ref.name === which.name;
  });
  if (!found) {
    const what = 'uid' in which ? `UID ${which.uid}` : `${which.namespace}/${which.name}`;
    throw new UsageError(`no pod ${what} in ${side.info.source}; list them with nodescope pods ${side.info.source}`);
  }
  return found;
}

function podArg(text: string): { namespace: string; name: string } {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(text);
  if (!m) throw new UsageError(`--pod takes NAMESPACE/NAME (or NS/A..NS/B), got '${text}'`);
  return { namespace: m[1]!, name: m[2]! };
}

/** One pod on each side, as a comparison of one pair. */
function onePodDiff(left: Side, right: Side, opts: { uid?: string; pod?: string }, noise: NoiseSettings): PodSetDiff {
  let l: JsonValue;
  let r: JsonValue;
  if (opts.uid !== undefined) {
    l = pick(left, { uid: opts.uid });
    r = pick(right, { uid: opts.uid });
  } else {
    const [a, b = a] = opts.pod!.split('..');
    l = pick(left, podArg(a!));
    r = pick(right, podArg(b!));
  }
  const diff = diffPod(l, r, noise);
  const counts = { added: 0, removed: 0, changed: 0, unchanged: 0, [diff.change]: 1 };
  return { pods: [diff], counts, rules: { samePod: activeRules(noise, false), differentPods: activeRules(noise, true) } };
}

const COLOURS: Record<string, string> = { '+': '\x1b[32m', '-': '\x1b[31m', '~': '\x1b[33m' };

/** Pod data is escaped for the terminal first; only then are our own colours added. */
function terminalOutput(text: string, colour: boolean): string {
  const safe = terminalText(text);
  if (!colour) return safe;
  return safe.replace(/^([+~-]) .*$/gm, (line, mark: string) => `${COLOURS[mark]}${line}\x1b[0m`);
}

export async function run(argv: string[]): Promise<number> {
  let opts;
  try {
    opts = await parseNodeArgs(argv, OUTPUTS, EXTRA, 1);
    if (opts.help) {
      console.log(help());
      return EXIT.ok;
    }
    // --local PATH is one side (unix:PATH), the source given the other; without it node is only its label.
    if (opts.local !== undefined && (opts.node !== 'local' || opts.args.length !== 1)) {
      throw new UsageError('with --local PATH (one side), give one other source, e.g. nodescope diff --local pods.sock snapshot.json; or give both as unix:PATH');
    }
    if (opts.at !== undefined) throw new UsageError('diff takes a recording\'s time with the source: FILE@TIME, e.g. rec.ndjson@+5m');
    if (opts.args.length !== 1) throw new UsageError('give two sources to compare, e.g. nodescope diff worker-1 snapshot.json');
    if (opts.extraValues.uid !== undefined && opts.extraValues.pod !== undefined) throw new UsageError('give --uid or --pod, not both');
  } catch (err) {
    return reportFailure('diff', err, true);
  }
  try {
    const extra = (opts.extraValues.ignore as string[] | undefined) ?? [];
    for (const path of extra) parsePattern(path);
    const noise: NoiseSettings = { defaults: opts.extraValues['no-default-ignores'] !== true, extra };
    const leftSource = opts.local !== undefined ? `unix:${opts.local}` : opts.node;
    const loaded = [await loadSide(leftSource, opts), await loadSide(opts.args[0]!, opts)] as const;
    const aligned = alignSides(loaded[0].pods, loaded[1].pods, { left: loaded[0].info.source, right: loaded[1].info.source });
    const left = { ...loaded[0], pods: aligned.left };
    const right = { ...loaded[1], pods: aligned.right };
    const one = { ...(opts.extraValues.uid !== undefined ? { uid: opts.extraValues.uid as string } : {}), ...(opts.extraValues.pod !== undefined ? { pod: opts.extraValues.pod as string } : {}) };
    const diff = one.uid !== undefined || one.pod !== undefined ? onePodDiff(left, right, one, noise) : diffPodSets(left.pods, right.pods, (p) => p, noise);
    const notes = [...aligned.notes, ...(opts.mask ? [`both sides were read through the mask ${formatFieldMask(opts.mask)}: only those fields are compared`] : [])];
    if (opts.output === 'json') await writeStdout(podSetDiffJson(diff, left.info, right.info, notes));
    else if (opts.output === 'patch') await writeStdout(podSetPatchLines(diff));
    else {
      const text = podSetDiffText(diff) + notes.map((n) => `note: ${n}\n`).join('');
      await writeStdout(terminalOutput(text, process.stdout.isTTY === true && !process.env.NO_COLOR));
    }
    const differs = diff.pods.some((p) => p.change !== 'unchanged' && (p.change !== 'changed' || shownChanges(p).length > 0));
    return differs ? 1 : EXIT.ok;
  } catch (err) {
    if (err instanceof IgnorePatternError) return reportFailure('diff', new UsageError(`bad --ignore: ${err.message}`), true);
    return reportFailure('diff', err);
  }
}
