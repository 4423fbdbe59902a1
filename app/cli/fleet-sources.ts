/**
 * Reads the pods of several SOURCEs at once (`pods SRC SRC...`, `compare`): nodes are opened concurrently
 * through a limiter, share one terminal for questions and one login per jump host, and a source that fails
 * or hangs is reported on stderr without holding back or hiding the others.
 */
import { readFileSync } from 'node:fs';
import { isHostPattern, parseHostList } from '../fleet/host-list';
import type { PodTree } from '../pod/pod-tree';
import { expandHostPatterns, HostPatternError } from '../ssh/ssh-host-patterns';
import { createConcurrencyLimit, DEFAULT_OPEN_CONCURRENCY, DEFAULT_STALL_MS } from '../util/concurrency-limit';
import { exitCodeFor, nextStepOf } from './cli-failure';
import { connectToSource, type KubeletConnection } from './kubelet-connection';
import { noteMask, warnUnknownFields } from './node-command';
import { type ExtraOptions, type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { asOf, openOffline } from './offline-source';
import { resolveSource } from './pod-source';
import { expandSocketGlob, isSocketGlob } from './socket-glob';
import { terminalPrompter } from './terminal-prompter';
import { printError } from './terminal-text';

export type SourcePods =
  /** `asOf`: the instant the pods are of (ages count to it): now for a live node, a file's own time offline. */
  | { id: string; pods: PodTree[]; asOf: number }
  | { id: string; error: unknown };

/** The options of commands that take several sources. */
export const FLEET_OPTIONS = { 'hosts-file': { type: 'string' } } as const satisfies ExtraOptions;
export const FLEET_HELP = `several sources:
  SOURCE may be an ssh_config host pattern ('worker-*', 'worker-*,!worker-9'): every Host alias it matches
  'unix:DIR/*.sock' (a glob in the file name): every socket in DIR it matches, sorted
  --hosts-file FILE          also read the sources listed in FILE (- for stdin): one per line, # comments`;

/** Whether the command line names several sources (more than one, a host pattern, or a hosts file). */
export function namesSeveralSources(opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): boolean {
  return opts.args.length > 0 || opts.extraValues['hosts-file'] !== undefined || isHostPattern(opts.node) || isSocketGlob(opts.node);
}

/**
 * The sources named: the arguments and --hosts-file's lines, ssh_config patterns and socket globs expanded,
 * each once, in order. At least `min` are needed.
 */
export function sourceIds(opts: NodeCommandOptions & { extraValues: Record<string, unknown> }, min: number, command: string): string[] {
  if (opts.local !== undefined) throw new UsageError(`${command} with several sources takes sockets as unix:PATH, not --local`);
  const named = [opts.node, ...opts.args].filter(Boolean);
  const file = opts.extraValues['hosts-file'] as string | undefined;
  if (file !== undefined) named.push(...readHostsFile(file));
  const ids = new Set<string>();
  for (const source of named) {
    // A socket path is never an ssh_config pattern, whatever characters it holds.
    if (source.startsWith('unix:')) {
      for (const id of isSocketGlob(source) ? expandSocketGlob(source) : [source]) ids.add(id);
      continue;
    }
    try {
      for (const id of expandHostPatterns([source], opts.ssh.configFile)) ids.add(id);
    } catch (err) {
      if (err instanceof HostPatternError) throw new UsageError(err.message);
      throw err;
    }
  }
  if (ids.size < min) throw new UsageError(`${command} needs at least ${min} sources`);
  return [...ids];
}

/** The hosts --hosts-file FILE lists (- for stdin); any line that is not one host is a usage error naming it. */
export function readHostsFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --hosts-file ${file}: ${(err as Error).message}`);
  }
  const list = parseHostList(text);
  if (list.problems.length) {
    throw new UsageError(list.problems.map((p) => `${file}:${p.line}: ${p.reason}: ${p.text}`).join('\n'));
  }
  return list.hosts;
}

/** Says on stderr why a source could not be read, with the next step. */
export function reportSourceFailure(command: string, id: string, err: unknown): void {
  printError(`nodescope ${command}: ${id}: ${err instanceof Error ? err.message : String(err)}`);
  const nextStep = nextStepOf(err);
  if (nextStep) printError(`  next step: ${nextStep}`);
}

/** The exit code of a partial result: that of the first failed source, else 0. */
export function failureCode(results: readonly SourcePods[]): number {
  const failed = results.find((r): r is Extract<SourcePods, { error: unknown }> => 'error' in r);
  return failed ? exitCodeFor(failed.error) : 0;
}

/**
 * Reads every source's pods, in the order given. Failures are reported as they happen and returned in
 * place; connections stay open until every source is read, so the nodes behind one jump host share one
 * login throughout.
 */
export async function readSources(ids: readonly string[], opts: NodeCommandOptions, command: string): Promise<SourcePods[]> {
  const prompter = terminalPrompter();
  // Loaded here, not at start: it brings ssh2, which a single node on a local socket never needs.
  const { createJumpConnectionPool } = await import('../ssh/shared-jump-connections');
  const shared = { prompter, jumpPool: createJumpConnectionPool() };
  const limit = createConcurrencyLimit(DEFAULT_OPEN_CONCURRENCY, { stallMs: DEFAULT_STALL_MS });
  const connections: KubeletConnection[] = [];

  // `progress` keeps the source's slot in the open limit while its dial moves on and its pods arrive.
  const read = async (id: string, progress: () => void): Promise<SourcePods> => {
    const source = resolveSource(id, undefined);
    if (source.kind === 'file') {
      const offline = await openOffline(source.path, { from: 'end', ...(opts.at !== undefined ? { at: opts.at } : {}), ...(opts.mask ? { mask: opts.mask } : {}) });
      return { id, pods: offline.pods.map((p) => p.pod), asOf: asOf(offline) };
    }
    if (opts.at !== undefined) throw new UsageError('--at is for recordings; a live node has only its present');
    const conn = await connectToSource(source, opts, { ...shared, progress });
    connections.push(conn);
    const list = await conn.client.listPods({ arrived: progress });
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    return { id, pods: list.pods.map((p) => p.pod), asOf: Date.now() };
  };

  try {
    return await Promise.all(
      ids.map((id) =>
        limit.run((progress) => read(id, progress)).catch((error: unknown): SourcePods => {
          reportSourceFailure(command, id, error);
          return { id, error };
        }),
      ),
    );
  } finally {
    await Promise.all(connections.map((c) => c.close()));
    prompter.close();
  }
}
