import type { CallContext, PodWatchItem } from '../contract';

/**
 * Who watches which node's pods (`pods.watch`, a subscription: app/contract/jobs.ts): each window gets
 * the pod batches and feed lines of the nodes it watches and no others', until it cancels, goes away, or
 * the node is removed. Looked up by node, so a batch costs its own watchers only, however many nodes a window watches.
 */
export class PodWatchers {
  private readonly byNode = new Map<string, Set<(item: PodWatchItem) => void>>();
  private readonly ends = new Map<string, Set<() => void>>();

  /** Sends the node's batches and feed lines to the caller; answers when the node is removed, rejects when cancelled. */
  watch(nodeId: string, call: CallContext<PodWatchItem>): Promise<Record<string, never>> {
    return new Promise((resolve, reject) => {
      // An item its contract refuses (a core bug) fails this watch alone, not the node's other watchers.
      const send = (item: PodWatchItem) => {
        try {
          call.progress(item);
        } catch (err) {
          stop();
          reject(err);
        }
      };
      const stop = () => {
        this.byNode.get(nodeId)?.delete(send);
        this.ends.get(nodeId)?.delete(ended);
        call.signal.removeEventListener('abort', cancelled);
      };
      const ended = () => {
        stop();
        resolve({});
      };
      const cancelled = () => {
        stop();
        reject(call.signal.reason);
      };
      if (call.signal.aborted) return cancelled();
      call.signal.addEventListener('abort', cancelled, { once: true });
      this.setOf(this.byNode, nodeId).add(send);
      this.setOf(this.ends, nodeId).add(ended);
    });
  }

  /** A node's batch or feed lines, to the windows watching it. */
  deliver(item: PodWatchItem): void {
    for (const send of this.byNode.get(item.nodeId) ?? []) send(item);
  }

  /** The node is gone: its watches are over. */
  end(nodeId: string): void {
    for (const ended of [...(this.ends.get(nodeId) ?? [])]) ended();
    this.byNode.delete(nodeId);
    this.ends.delete(nodeId);
  }

  /** Every watch is over (the app core closes). */
  close(): void {
    for (const nodeId of [...this.ends.keys()]) this.end(nodeId);
  }

  private setOf<T>(map: Map<string, Set<T>>, nodeId: string): Set<T> {
    let set = map.get(nodeId);
    if (!set) map.set(nodeId, (set = new Set()));
    return set;
  }
}
