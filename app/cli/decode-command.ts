/**
 * `nodescope decode`: captured Pods API payloads -> what kubectl would print. Reads a raw pod (a
 * ListPodsResponse.pods entry or WatchPodsEvent.pod), or a whole ListPodsResponse / GetPodResponse /
 * WatchPodsEvent message, from a file or stdin.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { decodePods, type DecodeOutcome } from '../pod/decode';
import { podsToKubectlListJson, podToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import { readGetPodResponse, readListPodsResponse, readWatchPodsEvent } from '../kubelet/pods-api-messages';
import { EXIT } from './exit-codes';
import { unknownFieldsWarning } from './unknown-fields-warning';

export const summary = 'print captured pod bytes (.pb) as kubectl get pod -o json would';

const HELP = `usage: nodescope decode [FILE.pb | -] [options]

Reads protobuf bytes from FILE (or stdin) and prints them exactly as kubectl get pod -o json would.

options:
  --type pod|list|get|watch   what the bytes are: a raw pod (default), a ListPodsResponse,
                              a GetPodResponse or one WatchPodsEvent
  -o, --output json|ndjson    json (default; several pods as a kubectl List) or one pod per line
  --show-managed-fields       keep metadata.managedFields (kubectl hides them by default)
  -h, --help`;

async function readInput(file: string | undefined): Promise<Buffer> {
  if (file && file !== '-') return readFile(file);
  if (process.stdin.isTTY) throw new UsageError('no input: give a FILE.pb or pipe the bytes in (nodescope decode - < pod.pb)');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

class UsageError extends Error {}

function podsOf(type: string, bytes: Uint8Array): Uint8Array[] {
  switch (type) {
    case 'pod':
      return [bytes];
    case 'list':
      return readListPodsResponse(bytes);
    case 'get':
      return [readGetPodResponse(bytes)];
    case 'watch': {
      const ev = readWatchPodsEvent(bytes);
      if (ev.pod.length === 0) throw new UsageError(`the WatchPodsEvent (${ev.type}) carries no pod`);
      return [ev.pod];
    }
    default:
      throw new UsageError(`unknown --type '${type}': use pod, list, get or watch`);
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
    console.error(`nodescope decode: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) {
    console.error(`nodescope decode: one input at a time (got ${positionals.length})\n\n${HELP}`);
    return EXIT.usage;
  }
  if (values.output !== 'json' && values.output !== 'ndjson') {
    console.error(`nodescope decode: unknown output '${values.output}': use json or ndjson`);
    return EXIT.usage;
  }
  const file = positionals[0];
  let outcomes: DecodeOutcome[];
  try {
    const bytes = await readInput(file);
    const label = file && file !== '-' ? file : 'stdin';
    let pods: Uint8Array[];
    try {
      pods = podsOf(values.type!, bytes);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      console.error(`nodescope decode: ${label} is not a ${values.type} message: ${(err as Error).message}`);
      return EXIT.data;
    }
    outcomes = decodePods(pods, (i) => (pods.length === 1 ? label : `${label} pods[${i}]`));
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`nodescope decode: ${err.message}`);
      return EXIT.usage;
    }
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT' || e.code === 'EISDIR' || e.code === 'EACCES') {
      console.error(`nodescope decode: cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
      return EXIT.usage;
    }
    throw err;
  }

  const options = { showManagedFields: values['show-managed-fields'] };
  const good = [];
  for (const o of outcomes) {
    if (!o.ok) {
      console.error(`nodescope decode: ${o.error.message}`);
      continue;
    }
    if (o.unknownFields.length) {
      const meta = o.pod.metadata as { name?: string; namespace?: string } | undefined;
      console.error(unknownFieldsWarning(meta?.namespace ? `${meta.namespace}/${meta.name}` : String(meta?.name ?? '?'), o.unknownFields));
    }
    good.push(o.pod);
  }
  if (values.output === 'ndjson') {
    for (const pod of good) process.stdout.write(`${podToNdjsonLine(pod, options)}\n`);
  } else if (outcomes.length === 1) {
    if (good[0]) process.stdout.write(podToKubectlJson(good[0], options));
  } else {
    process.stdout.write(podsToKubectlListJson(good, options));
  }
  return good.length === outcomes.length ? EXIT.ok : EXIT.data;
}
