/** The frame of every node command: parse, connect, run, close, and turn failures into exit codes. */
import type { ReceivedPod } from '../kubelet/received-pod';
import type { PodDecodeError } from '../pod/decode';
import { EXIT } from './exit-codes';
import { reportFailure } from './cli-failure';
import { connectToKubelet, type KubeletConnection } from './kubelet-connection';
import { nodeOptionsHelp, parseNodeArgs, type ExtraOptions, type NodeCommandOptions } from './node-options';
import { unknownFieldsWarning } from './unknown-fields-warning';

export interface NodeCommandSpec {
  name: string;
  usage: string;
  /** -o values accepted; the first is the default. */
  outputs: readonly string[];
  extra?: ExtraOptions;
  extraHelp?: string;
  /** Arguments after NODE (get takes a UID); with --local, NODE may be left out. */
  args?: number;
  run(conn: KubeletConnection, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): Promise<number>;
}

export function helpText(spec: NodeCommandSpec): string {
  return [spec.usage, '', ...(spec.extraHelp ? [spec.extraHelp] : []), nodeOptionsHelp(spec.outputs)].join('\n');
}

export async function runNodeCommand(spec: NodeCommandSpec, argv: string[]): Promise<number> {
  let opts;
  try {
    opts = parseNodeArgs(argv, spec.outputs, spec.extra, spec.args ?? 0);
  } catch (err) {
    return reportFailure(spec.name, err, helpText(spec));
  }
  if (opts.help) {
    console.log(helpText(spec));
    return EXIT.ok;
  }
  // `nodescope pods NODE | head`: a reader that stops early is normal, not a crash.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  let conn: KubeletConnection | undefined;
  try {
    conn = await connectToKubelet(opts);
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
    if (p.unknownFields.length) process.stderr.write(`${unknownFieldsWarning(`${p.namespace}/${p.name}`, p.unknownFields)}\n`);
  }
}

/** Names on stderr each pod of a list that does not decode (the others are printed); returns the exit code. */
export function reportUndecodable(undecodable: readonly PodDecodeError[]): number {
  for (const err of undecodable) process.stderr.write(`nodescope: left out a pod that does not decode: ${err.message}\n`);
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
