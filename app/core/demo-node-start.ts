import type { NodeSpec } from '../contract';

export const DEMO_ID = 'demo';
const DEMO_SPEC: NodeSpec = { kind: 'demo', label: 'Demo node (simulated)' };

export interface DemoNodeStart<R> {
  /** Connects the demo node, adding it first when there is none. */
  start(): Promise<R>;
  /**
   * Removals still closing their node, by id. The demo node's id comes back when it is started again: until
   * the old one's removal is over, its end (nodeRemoved, its watchers, the host stopping the demo kubelet)
   * would land on the new one.
   */
  removals: Map<string, Promise<unknown>>;
}

export function demoNodeStart<R>(o: { existing(id: string): R | undefined; connect(record: R): Promise<unknown>; add(spec: NodeSpec, id: string): R }): DemoNodeStart<R> {
  const removals = new Map<string, Promise<unknown>>();
  // Starts asked for at once (a double click) share one, or the second record would hide the first.
  let starting: Promise<R> | null = null;
  const start = (): Promise<R> => {
    starting ??= (async () => {
      // Only when one is closing: a start with none adds the node at once, before any other (the preview's first node).
      const removal = removals.get(DEMO_ID);
      if (removal) await removal.catch(() => undefined);
      const existing = o.existing(DEMO_ID);
      if (existing) {
        await o.connect(existing);
        return existing;
      }
      return o.add(DEMO_SPEC, DEMO_ID);
    })().finally(() => (starting = null));
    return starting;
  };
  return { start, removals };
}
