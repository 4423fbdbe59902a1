/**
 * `nodescope logs SOURCE POD`: a container's log read from the node's files (/var/log/pods), printed as
 * `kubectl logs` with the same flags prints it, without an API server or the kubelet's REST API. Each kind
 * of source says where its logs are (app/source/source-registry.ts, `logs`): over SSH the files are read with
 * fixed commands (app/logs/node-file-access.ts); with `unix:PATH`/`--local` (the simulator, or Nodescope on
 * the node itself) on this machine, from `--log-dir`; a recording holds what it kept of them.
 */
import type { LogFileAccess } from '../logs/log-file-access';
import type { LogReadOptions } from '../logs/log-options';
import type { PodLogLine } from '../logs/pod-logs';
import { EXIT } from './exit-codes';
import { writeStdout } from './node-command';
import { nodeOptionsHelp, parseNodeArgs } from './node-options';
import { UsageError } from './usage-error';
import { parseDuration, resolveSource } from './pod-source';
import { sourceKindNode, type KindLogs, type KindArgument } from '../source/source-registry';
import { printError } from './terminal-text';
import { reportFailure } from './cli-failure';

const USAGE = `usage: nodescope logs SOURCE POD [options]

Prints a container's log from the node's log files, as kubectl logs prints it. POD is namespace/name,
a name (when one namespace has it) or a UID. SOURCE is an ssh destination (the files are read there, root-only:
log in as root or add --sudo), or unix:SOCKET / --local SOCKET to read them on this machine, or a recording:
the end of the log of an instance that ended while it recorded (nodescope record keeps it), as it was at --at
(default the recording's end); there -p is --previous. With --api rest the kubelet reads its files and sends the
lines (GET /containerLogs on its REST API, as kubectl logs gets them): for a node read through that API.

logs:
  -c, --container NAME       the container (needed when the pod has several; they are listed)
  --all-containers           every container, one after another (name order)
  --interleave               with --all-containers: merge the containers' lines by time
  --prefix                   start each line with [pod/NAME/CONTAINER], as kubectl --prefix
  --previous                 the previous instance of the container (-p is ssh's port here)
  -f, --follow               keep printing as the container writes, across log rotations
  --tail N                   the last N lines (-1: all, the default)
  --since DURATION           lines newer than this, e.g. 5m, 1h30m (rounded to seconds)
  --since-time TIME          lines at or after an RFC 3339 time (whole seconds, as kubectl sends it)
  --timestamps               start each line with its time (RFC 3339, nine fraction digits)
  --limit-bytes N            stop after N bytes
  --include-rotated          read the rotated files too (N.log.<time>[.gz]); kubectl never does
  --log-dir DIR              the kubelet's podLogsDir (default /var/log/pods)
  --api rest                 ask the kubelet's REST API (/containerLogs) instead of reading the files
`;

const EXTRA = {
  container: { type: 'string', short: 'c' },
  'all-containers': { type: 'boolean', default: false },
  interleave: { type: 'boolean', default: false },
  prefix: { type: 'boolean', default: false },
  previous: { type: 'boolean', default: false },
  follow: { type: 'boolean', short: 'f', default: false },
  tail: { type: 'string' },
  since: { type: 'string' },
  'since-time': { type: 'string' },
  timestamps: { type: 'boolean', default: false },
  'limit-bytes': { type: 'string' },
  'include-rotated': { type: 'boolean', default: false },
  'log-dir': { type: 'string' },
} as const;

// The shared connection options and the REST API's; the Pods API's and the output's do not apply to logs.
const help = () => {
  const all = nodeOptionsHelp(['text']);
  const rest = all.slice(all.indexOf('kubelet REST API (--api rest'), all.indexOf('files (a snapshot')).replace(/ {2}--poll-interval.*\n/, '').replace(/^kubelet REST API \(.*\):/, 'kubelet REST API (--api rest):');
  return `${USAGE}${all.split('kubelet:')[0]}  --sudo                     read the files with sudo -n (they are root-only)
${rest}  -h, --help`;
};

function integer(v: unknown, flag: string, min: number, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || String(v).trim() === '') throw new UsageError(`bad ${flag} '${String(v)}': give a whole number`);
  if (n < min) throw new UsageError(`${flag} must be ${what}`);
  return n;
}

/** kubectl's own checks and conversions of its flags, so the same request reaches the reader. */
export async function logReadOptions(v: Record<string, unknown>, nowMs: number): Promise<LogReadOptions> {
  const { parseRfc3339 } = await import('../util/rfc3339');
  const { sinceDuration, sinceTimeNanos } = await import('../logs/log-options');
  if (v.since !== undefined && v['since-time'] !== undefined) throw new UsageError('at most one of --since-time or --since may be used');
  const tail = integer(v.tail, '--tail', -1, 'greater than or equal to -1');
  const limitBytes = integer(v['limit-bytes'], '--limit-bytes', 1, 'greater than 0');
  const opts: LogReadOptions = { timestamps: v.timestamps === true, follow: v.follow === true, includeRotated: v['include-rotated'] === true };
  if (tail !== undefined && tail >= 0) opts.tailLines = tail;
  if (limitBytes !== undefined) opts.limitBytes = limitBytes;
  if (v.since !== undefined) {
    const ms = parseDuration(String(v.since));
    if (ms === undefined) throw new UsageError(`bad --since '${String(v.since)}': give a duration such as 30s, 5m or 1h30m`);
    Object.assign(opts, sinceDuration(ms, nowMs));
  }
  if (v['since-time'] !== undefined) {
    const ms = parseRfc3339(String(v['since-time']));
    if (ms === undefined) throw new UsageError(`bad --since-time '${String(v['since-time'])}': give an RFC 3339 time such as 2026-11-23T10:00:00Z`);
    opts.sinceNanos = sinceTimeNanos(ms);
  }
  return opts;
}

/** Where the source's kind keeps its container logs; a kind with none is the user's to change. */
function logsOf(source: KindArgument, arg: string): KindLogs<KindArgument> {
  const logs = sourceKindNode(source.kind).logs;
  if (!logs) throw new UsageError(`'${arg}' has no container logs to read: give an SSH destination, unix:PATH or a recording`);
  return logs;
}

export async function run(argv: string[]): Promise<number> {
  let opts;
  let read: LogReadOptions;
  try {
    // kubectl's -p is --previous; for a node it is ssh's port, as in every node command: a kubectl habit gets
    // told so. A recording has no port: there it is kubectl's.
    const p = argv.indexOf('-p');
    const pIsPrevious = p >= 0 && !/^\d+$/.test(argv[p + 1] ?? '');
    opts = await parseNodeArgs(pIsPrevious ? argv.with(p, '--previous') : argv, ['text'], EXTRA, 1);
    const recorded = !opts.help && logsOf(resolveSource(opts.node, opts.local), opts.node).from === 'recording';
    if (pIsPrevious && !recorded) throw new UsageError('-p is the SSH port here (as in every nodescope node command); for the previous instance use --previous');
    if (opts.at !== undefined && !recorded) throw new UsageError('--at is for recordings; a live node has only its present');
    if (opts.help) {
      console.log(help());
      return EXIT.ok;
    }
    read = await logReadOptions(opts.extraValues, Date.now());
    if (opts.args.length !== 1) throw new UsageError('give one POD after the source: namespace/name, a name or a UID');
    if (opts.extraValues['all-containers'] && opts.extraValues.container !== undefined) throw new UsageError('--all-containers=true should not be specified with container name');
    if (opts.extraValues.interleave && !opts.extraValues['all-containers']) throw new UsageError('--interleave merges the containers of --all-containers; add it');
  } catch (err) {
    // The problem and where the options are, not the whole help: it is long.
    return reportFailure('logs', err, true);
  }
  const v = opts.extraValues;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  read.signal = stop.signal;
  let conn: { close(): unknown } | undefined;
  try {
    let podName: string;
    let lines: AsyncIterable<Pick<PodLogLine, 'container' | 'bytes'>>;
    const source = resolveSource(opts.node, opts.local);
    const logs = logsOf(source, opts.node);
    if (logs.from === 'recording') ({ podName, lines } = await logs.read(source, opts, read));
    else if (opts.api === 'rest') {
      if (source.kind !== 'ssh') throw new UsageError(`--api rest reads /containerLogs over SSH: a ${source.kind} source has its log files here (leave out --api rest)`);
      const { restPodLogs } = await import('./rest-logs');
      const rest = await restPodLogs(opts, read);
      conn = rest;
      ({ podName, lines } = rest);
    } else {
      const [layout, { containerLogs }, { readPodLogs }] = await Promise.all([
        import('../logs/pod-log-layout'),
        import('../logs/container-logs'),
        import('../logs/pod-logs'),
      ]);
      const logsDir = layout.checkLogsDir(String(v['log-dir'] ?? layout.DEFAULT_POD_LOGS_DIR));
      const files = await logs.open(source, opts);
      conn = files;
      const pod = await layout.findPodLogDir(files.access, logsDir, opts.args[0]!);
      const containers = await chooseContainers(files.access, pod, v.container as string | undefined, v['all-containers'] === true);
      podName = pod.name;
      if (opts.verbose) for (const c of containers) printError(`nodescope: reading ${pod.namespace}/${pod.name} container ${c} from its log files in ${pod.path}/${c} on ${files.access.where}`);
      lines = readPodLogs(containerLogs(files.access), pod, containers, v.previous === true, read, v.interleave ? 'interleaved' : 'sequential');
    }
    const atLineStart = new Map<string, boolean>();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!pendingBytes) return;
      const out = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      await writeStdout(out);
    };
    for await (const l of lines) {
      if (v.prefix && atLineStart.get(l.container) !== false) pending.push(Buffer.from(`[pod/${podName}/${l.container}] `));
      atLineStart.set(l.container, l.bytes.length > 0 && l.bytes[l.bytes.length - 1] === 0x0a);
      pending.push(l.bytes);
      pendingBytes += l.bytes.length;
      if (read.follow || pendingBytes >= 64 * 1024) await flush();
    }
    await flush();
    return EXIT.ok;
  } catch (err) {
    return reportFailure('logs', err);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await conn?.close();
  }
}

/** -c, every container, or the only one; a pod with several and no -c is a question for the user, as kubectl asks it. */
async function chooseContainers(access: LogFileAccess, pod: import('../logs/pod-log-layout').PodLogDir, container: string | undefined, all: boolean): Promise<string[]> {
  if (container !== undefined) return [container];
  const { listContainers } = await import('../logs/pod-log-layout');
  const { LogAccessError } = await import('../logs/log-file-access');
  const found = await listContainers(access, pod);
  if (found.length && (all || found.length === 1)) return found;
  if (!found.length) throw new LogAccessError(`pod ${pod.namespace}/${pod.name} has no container logs on ${access.where}`, 'None of its containers has started yet.', 'NOT_FOUND');
  throw new UsageError(`pod ${pod.namespace}/${pod.name} has several containers with logs: ${found.join(', ')}; choose one with -c, or give --all-containers`);
}
