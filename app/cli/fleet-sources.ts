/**
 * Reads the pods of several SOURCEs at once (`pods SRC SRC...`, `compare`): nodes are opened concurrently
 * through a limiter, share one terminal for questions and one login per jump host, and a source that fails
 * or hangs is reported on stderr without holding back or hiding the others.
 */
import type { PodTree } from '../pod/pod-tree';
import { createJumpConnectionPool } from '../ssh/shared-jump-connections';
import { createConcurrencyLimit, DEFAULT_OPEN_CONCURRENCY } from '../util/concurrency-limit';
import { exitCodeFor } from './cli-failure';
import { connectToKubelet, type KubeletConnection } from './kubelet-connection';
import { noteMask, warnUnknownFields } from './node-command';
import { CliUsageError, type NodeCommandOptions } from './node-options';
import { asOf, openOffline } from './offline-source';
import { resolveSource } from './pod-source';
import { terminalPrompter } from './terminal-prompter';
import { printError } from './terminal-text';
import { isSshError } from '../ssh/ssh-errors';
import { KubeletError } from '../kubelet/kubelet-error';

export type SourcePods =
  /** `asOf`: the instant the pods are of (ages count to it): now for a live node, a file's own time offline. */
  | { id: string; pods: PodTree[]; asOf: number }
  | { id: string; error: unknown };

/** A stalled dial hands its slot on after this long (it keeps trying until its ConnectTimeout). */
const STALL_MS = 3_000;

/** The SOURCE arguments: at least `min`, duplicates dropped (a node listed twice is read once). */
export function sourceIds(opts: NodeCommandOptions, min: number, command: string): string[] {
  if (opts.local !== undefined) throw new CliUsageError(`${command} with several sources takes sockets as unix:PATH, not --local`);
  const ids = [...new Set([opts.node, ...opts.args])];
  if (ids.length < min) throw new CliUsageError(`${command} needs at least ${min} sources`);
  return ids;
}

/** Says on stderr why a source could not be read, with the next step. */
export function reportSourceFailure(command: string, id: string, err: unknown): void {
  printError(`nodescope ${command}: ${id}: ${err instanceof Error ? err.message : String(err)}`);
  const hint = err instanceof KubeletError || isSshError(err) ? err.hint : undefined;
  if (hint) printError(`  next step: ${hint}`);
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
  const shared = { prompter, jumpPool: createJumpConnectionPool() };
  const limit = createConcurrencyLimit(DEFAULT_OPEN_CONCURRENCY, { stallMs: STALL_MS });
  const connections: KubeletConnection[] = [];

  const read = async (id: string): Promise<SourcePods> => {
    const source = resolveSource(id, undefined);
    if (source.kind === 'file') {
      const offline = await openOffline(source.path, { from: 'end', ...(opts.at !== undefined ? { at: opts.at } : {}), ...(opts.mask ? { mask: opts.mask } : {}) });
      return { id, pods: offline.pods.map((p) => p.pod), asOf: asOf(offline) };
    }
    if (opts.at !== undefined) throw new CliUsageError('--at is for recordings; a live node has only its present');
    const conn = await connectToKubelet(source.kind === 'socket' ? { ...opts, node: id, local: source.path } : { ...opts, node: id }, shared);
    connections.push(conn);
    const list = await conn.client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    return { id, pods: list.pods.map((p) => p.pod), asOf: Date.now() };
  };

  try {
    return await Promise.all(
      ids.map((id) =>
        limit.run(() => read(id)).catch((error: unknown): SourcePods => {
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
