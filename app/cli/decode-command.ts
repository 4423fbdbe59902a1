/**
 * `nodescope decode`: captured Pods API payloads -> what kubectl would print. Reads a raw pod (a
 * ListPodsResponse.pods entry or WatchPodsEvent.pod), or a whole ListPodsResponse / GetPodResponse /
 * WatchPodsEvent message, from a file or stdin.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { PodDecodeError } from '../pod/decode';
import { WireFormatError } from '../pod/wire-reader';
import { podBytesToKubectlJson, streamPodBytesAsKubectl } from '../pod/kubectl-json';
import { podBytesToKubectlYaml, streamPodBytesAsKubectlYaml } from '../pod/kubectl-yaml';
import { MAX_MESSAGE_BYTES } from '../kubelet/message-limit';
import { readGetPodResponse, readListPodsResponse, readWatchPodsEvent } from '../kubelet/pods-api-messages';
import { NodescopeError, isNodescopeError } from '../util/nodescope-error';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { warnYamlProblems } from './pod-output';
import { unknownFieldsWarningForBytes } from './unknown-fields-warning';
import { printError } from './terminal-text';
import { UsageError } from './usage-error';
import { usageHint } from './usage-hint';

const HELP = `usage: nodescope decode [FILE.pb | -] [options]

Reads protobuf bytes from FILE (or stdin) and prints them exactly as kubectl get pod -o json (or -o yaml) would.

options:
  --type pod|list|get|watch   what the bytes are: a raw pod (default), a ListPodsResponse,
                              a GetPodResponse or one WatchPodsEvent
  -o, --output json|yaml|ndjson
                              json (default; several pods as a kubectl List), yaml (likewise),
                              or one pod per line
  --show-managed-fields       keep metadata.managedFields (kubectl hides them by default)
  -h, --help`;

/**
 * The input, refused before it is read when it is larger than any Pods API message (a sparse or wrong file),
 * and read no further than that from a pipe or device: memory stays bounded whatever FILE is.
 */
async function readInput(file: string | undefined): Promise<Buffer> {
  const limit = MAX_MESSAGE_BYTES;
  const name = file && file !== '-' ? file : 'stdin';
  let input: AsyncIterable<Buffer>;
  let handle: FileHandle | undefined;
  if (file && file !== '-') {
    handle = await open(file, 'r');
    const st = await handle.stat();
    if (st.isDirectory()) throw new UsageError(`${file} is a folder: give the file of captured bytes`);
    if (st.isFile() && st.size > limit) throw new InputError(`${file} is ${mib(st.size)}, larger than any Pods API message (${mib(limit)} at most): is it the right file?`);
    input = handle.createReadStream({ autoClose: false });
  } else {
    if (process.stdin.isTTY) throw new UsageError('no input: give a FILE.pb or pipe the bytes in (nodescope decode - < pod.pb)');
    input = process.stdin;
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of input) {
      size += chunk.length;
      if (size > limit) throw new InputError(`${name} goes on past ${mib(limit)}, more than any Pods API message: stopped reading it`);
      chunks.push(chunk);
    }
    if (size === 0) throw new InputError(`${name} is empty: expected the captured protobuf bytes of a pod or a Pods API message`);
    return Buffer.concat(chunks);
  } finally {
    await handle?.close();
  }
}

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(n < 1024 * 1024 ? 2 : 0)} MiB`;

/** What each --type expects, for errors about bytes that are not that. */
const EXPECTED: Record<string, string> = {
  pod: 'the protobuf bytes of one pod (v1.Pod, as in ListPodsResponse.pods); a whole ListPodsResponse, GetPodResponse or WatchPodsEvent needs --type list, get or watch',
  list: 'a ListPodsResponse (repeated bytes pods = 1)',
  get: 'a GetPodResponse (bytes pod = 1)',
  watch: 'a WatchPodsEvent (EventType type = 1, bytes pod = 2)',
};

/** Input that is not what decode reads (too large, empty): exit 5 like bytes that do not decode. */
class InputError extends NodescopeError<'NOT_POD_BYTES'> {
  readonly exitClass = 'data';
  constructor(message: string) {
    super('NOT_POD_BYTES', message, undefined);
  }
}

function podsOf(type: string, bytes: Uint8Array): Uint8Array[] {
  switch (type) {
    case 'pod':
      return [bytes];
    case 'list':
      return readListPodsResponse(bytes);
    case 'get': {
      const pod = readGetPodResponse(bytes);
      if (pod.length === 0) throw new WireFormatError('the GetPodResponse carries no pod', bytes.length);
      return [pod];
    }
    case 'watch': {
      const ev = readWatchPodsEvent(bytes);
      if (ev.pod.length === 0) throw new WireFormatError(`the WatchPodsEvent (${ev.type}) carries no pod`, bytes.length);
      return [ev.pod];
    }
    default:
      throw new Error(`no reader for --type ${type}`);
  }
}

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        type: { type: 'string', default: 'pod' },
        output: { type: 'string', short: 'o', default: 'json' },
        'show-managed-fields': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    printError(`nodescope decode: ${(err as Error).message}\n${usageHint('decode')}`);
    return EXIT.usage;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) {
    printError(`nodescope decode: one input at a time (got ${positionals.length})\n${usageHint('decode')}`);
    return EXIT.usage;
  }
  if (values.output !== 'json' && values.output !== 'yaml' && values.output !== 'ndjson') {
    printError(`nodescope decode: unknown output '${values.output}': use json, yaml or ndjson`);
    return EXIT.usage;
  }
  const file = positionals[0];
  let pods: Uint8Array[];
  let labelOf: (i: number) => string;
  try {
    if (!EXPECTED[values.type!]) throw new UsageError(`unknown --type '${values.type}': use pod, list, get or watch`);
    const bytes = await readInput(file);
    const label = file && file !== '-' ? file : 'stdin';
    try {
      pods = podsOf(values.type!, bytes);
    } catch (err) {
      if (!(err instanceof WireFormatError)) throw err;
      printError(`nodescope decode: ${label}: ${err.message} at byte offset ${err.offset}; expected ${EXPECTED[values.type!]}`);
      return EXIT.data;
    }
    labelOf = (i) => (pods.length === 1 ? label : `${label} pods[${i}]`);
  } catch (err) {
    if (isNodescopeError(err)) return reportFailure('decode', err);
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT' || e.code === 'EISDIR' || e.code === 'EACCES') {
      printError(`nodescope decode: cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
      return EXIT.usage;
    }
    throw err;
  }

  const options = { showManagedFields: values['show-managed-fields'], ndjson: values.output === 'ndjson' };
  if (pods.length === 1 && !options.ndjson) {
    // One pod prints as the pod itself, not a List (kubectl get pod NAME -o json).
    try {
      const printed = values.output === 'yaml' ? podBytesToKubectlYaml(pods[0]!, options, labelOf(0)) : podBytesToKubectlJson(pods[0]!, options, labelOf(0));
      if (printed.unknownFields.length) printError(unknownFieldsWarningForBytes(pods[0]!, printed.unknownFields));
      if ('yaml' in printed) warnYamlProblems(labelOf(0), printed.problems);
      process.stdout.write('yaml' in printed ? printed.yaml : printed.json);
      return EXIT.ok;
    } catch (err) {
      if (!(err instanceof PodDecodeError)) throw err;
      printError(`nodescope decode: ${err.message}; expected ${EXPECTED[values.type!]}`);
      return EXIT.data;
    }
  }
  // The sink's chunk is reused after the call, and stdout writes asynchronously: hand it a copy.
  const printed =
    values.output === 'yaml'
      ? streamPodBytesAsKubectlYaml(pods, (text) => process.stdout.write(text), { ...options, labelOf })
      : { ...streamPodBytesAsKubectl(pods, (chunk) => process.stdout.write(chunk.slice()), { ...options, labelOf }), problems: [] };
  warnYamlProblems('the pods', printed.problems);
  for (const e of printed.errors) printError(`nodescope decode: ${e.message}`);
  for (const u of printed.unknownFields) printError(unknownFieldsWarningForBytes(pods[u.index]!, u.fields));
  return printed.errors.length === 0 ? EXIT.ok : EXIT.data;
}
