/**
 * The frame of every node command: parse, resolve the source (pod-source.ts), connect or open the file, run,
 * close, and turn failures into exit codes.
 */
import type { ReceivedPod } from '../kubelet/received-pod';
import type { PodDecodeError } from '../pod/decode';
import { EXIT } from './exit-codes';
import { reportFailure } from './cli-failure';
import { connectToSource, type KubeletConnection } from './kubelet-connection';
import { nodeOptionsHelp, parseNodeArgs, type ExtraOptions, type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { openOffline, type OfflinePods } from './offline-source';
import { resolveSource } from './pod-source';
import { unknownFieldsWarning } from './unknown-fields-warning';
import { printError } from './terminal-text';

export interface NodeCommandSpec {
  name: string;
  usage: string;
  /** -o values accepted; the first is the default. */
  outputs: readonly string[];
  extra?: ExtraOptions;
  extraHelp?: string;
  /** Checks the command's own options before anything is opened, so a typo costs no connection. */
  check?(opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): void;
  /** Arguments after NODE (get takes a pod); with --local, NODE may be left out. */
  args?: number;
  run(conn: KubeletConnection, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): Promise<number>;
  /** A recording without --at is shown from its start (a replay), not as it ended. */
  replays?: boolean;
  /** The command on a snapshot or recording file; without it the command needs a live node. */
  offline?(source: OfflinePods, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): Promise<number>;
}

export function helpText(spec: NodeCommandSpec): string {
  return [spec.usage, '', ...(spec.extraHelp ? [spec.extraHelp] : []), nodeOptionsHelp(spec.outputs)].join('\n');
}

export async function runNodeCommand(spec: NodeCommandSpec, argv: string[]): Promise<number> {
  let opts;
  try {
    opts = await parseNodeArgs(argv, spec.outputs, spec.extra, spec.args ?? 0);
    if (!opts.help) spec.check?.(opts);
  } catch (err) {
    return reportFailure(spec.name, err, true);
  }
  if (opts.help) {
    console.log(helpText(spec));
    return EXIT.ok;
  }
  let conn: KubeletConnection | undefined;
  try {
    const source = resolveSource(opts.node, opts.local);
    if (source.kind === 'file') {
      if (!spec.offline) throw new UsageError(`${spec.name} needs a live node (an ssh destination or unix:SOCKET), not the file ${source.path}`);
      return await spec.offline(await openOffline(source.path, { from: spec.replays ? 'start' : 'end', ...(opts.at !== undefined ? { at: opts.at } : {}), ...(opts.mask ? { mask: opts.mask } : {}) }), opts);
    }
    if (opts.at !== undefined) throw new UsageError('--at is for recordings; a live node has only its present');
    conn = await connectToSource(source, opts);
    return await spec.run(conn, opts);
  } catch (err) {
    return reportFailure(spec.name, err);
  } finally {
    await conn?.close();
  }
}

/** Warns on stderr about fields this version does not know, one line per pod. */
export function warnUnknownFields(pods: Iterable<ReceivedPod>): void {
  for (const p of pods) {
    if (p.unknownFields.length) printError(unknownFieldsWarning(`${p.namespace}/${p.name}`, p.unknownFields));
  }
}

/** Names on stderr each pod of a list that does not decode (the others are printed); returns the exit code. */
export function reportUndecodable(undecodable: readonly PodDecodeError[]): number {
  for (const err of undecodable) printError(`nodescope: left out a pod that does not decode: ${err.message}`);
  return undecodable.length ? EXIT.data : EXIT.ok;
}

/** Says on stderr when the kubelet ignored the mask (it was applied here instead). */
export function noteMask(honoured: boolean | undefined): void {
  if (honoured === false) process.stderr.write('nodescope: this kubelet ignores field masks; the mask was applied locally\n');
}

/** Writes to stdout and waits until it is flushed (large outputs, pipes). */
export function writeStdout(text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}
