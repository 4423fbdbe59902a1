import type { Bridge } from '../../app/contract/bridge';
import type { NodeMetrics } from '../../app/contract/node-metrics';
import type { AddNodeSpec, NodeInfo } from '../../app/contract/nodes';
import type { Notice } from '../../app/contract/notices';
import type { FeedLine, PodDeltas, PodWatchItem } from '../../app/contract/pods';
import type { Prompt } from '../../app/contract/prompts';
import { FeedBuffer } from './feed-buffer';
import { FrameBatcher } from './frame-batcher';
import { PodStore } from './pod-store';
import { errorText } from '../format/error-text';
import { openFiles } from '../bridge/open-files';
import { withNode, withoutNode } from './node-list';
import { restoreNode } from './restore-node';

/** Waits before fetching a node's rows again after pods.rows failed: doubling from the first, capped. */
const ROWS_RETRY_FIRST_MS = 1000;
const ROWS_RETRY_MAX_MS = 30_000;

type Incoming = { kind: 'deltas'; batch: PodDeltas } | { kind: 'feed'; lines: FeedLine[] };

/**
 * Everything the UI shows that comes from the app core, kept outside React: nodes, pending prompts,
 * pods and the feed. Pod and feed events are applied once per frame; views subscribe and read a
 * version number (useSyncExternalStore), so a burst of events renders once. Pod batches (and the pod
 * counts they change) have their own subscription, so on a busy node only the views of pods
 * re-render every frame, not the whole window.
 */
export class AppModel {
  readonly pods = new PodStore();
  readonly feed = new FeedBuffer();
  nodes: NodeInfo[] = [];
  /** Each node's latest CPU, memory, probes and devices; absent when it has none. */
  readonly metrics = new Map<string, NodeMetrics>();
  prompts: Prompt[] = [];
  /** The app core's own problems (saved nodes unreadable, a save that failed), until dismissed. */
  notices: Notice[] = [];
  /** Notices closed so far: a list answer or event that crossed the close on the way must not bring one back. */
  private readonly closedNotices = new Set<string>();
  /** Bumped on every change; views re-read when it moves. */
  version = 0;
  /** Last problem talking to the app core, shown in a banner. */
  connectionProblem: string | null = null;
  private readonly listeners = new Set<() => void>();
  /** Bumped when pods, the feed or a pod count change, and on every change of the rest. */
  podsVersion = 0;
  private readonly podListeners = new Set<() => void>();
  /** Nodes whose pods.rows request is in flight: one at a time, or answers could land out of order. */
  private readonly loading = new Set<string>();
  /** The nodes whose pod batches this window receives, each until its watch is cancelled or over. */
  private readonly watches = new Map<string, AbortController>();
  /** Nodes whose pods.rows failed: how many times in a row, and the timer of the next try. */
  private readonly rowRetries = new Map<string, { failures: number; timer: ReturnType<typeof setTimeout> | null }>();
  private readonly batcher: FrameBatcher<Incoming>;

  constructor(
    readonly bridge: Bridge,
    options: { requestFrame?: (cb: () => void) => unknown; now?: () => number } = {},
  ) {
    const now = options.now ?? Date.now;
    this.batcher = new FrameBatcher((items) => this.applyIncoming(items, now()), options.requestFrame);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** Follows pod batches, the feed and pod counts as well as every other change. */
  subscribePods = (listener: () => void): (() => void) => {
    this.podListeners.add(listener);
    return () => this.podListeners.delete(listener);
  };

  getPodsVersion = (): number => this.podsVersion;

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
    this.podsChanged();
  }

  private podsChanged(): void {
    this.podsVersion++;
    for (const listener of this.podListeners) listener();
  }

  /** Subscribes to the app core's events, then loads the current state. */
  async start(): Promise<void> {
    const b = this.bridge;
    // The model lives as long as the window, so these subscriptions are never undone.
    b.on('nodeState', (node) => this.applyNode(node));
    b.on('nodeRemoved', ({ nodeId }) => this.forgetNode(nodeId));
    b.on('nodeMetrics', ({ nodeId, metrics }) => this.setMetrics(nodeId, metrics));
    b.on('prompt', (prompt) => {
      this.prompts = [...this.prompts.filter((p) => p.id !== prompt.id), prompt];
      this.changed();
    });
    b.on('promptClosed', ({ id }) => this.dropPrompt(id));
    b.on('notice', (notice) => this.addNotices([notice]));
    b.on('noticeClosed', ({ id }) => this.dropNotice(id));
    await this.resync();
  }

  /** Reloads nodes, their rows and pending prompts (at start and after the connection came back). */
  async resync(): Promise<void> {
    try {
      const [nodes, prompts] = await Promise.all([this.bridge.request('nodes.list', {}), this.bridge.request('prompts.pending', {})]);
      this.nodes = nodes;
      this.prompts = prompts;
      this.connectionProblem = null;
      this.changed();
      // The link is back: fetch now rather than when a backed-off retry comes due.
      for (const nodeId of [...this.rowRetries.keys()]) this.cancelRowRetry(nodeId);
      await Promise.all([...nodes.map((n) => this.loadRows(n.id)), ...nodes.map((n) => this.loadMetrics(n.id)), this.loadNotices()]);
    } catch (err) {
      this.connectionProblem = errorText(err);
      this.changed();
    }
  }

  private setMetrics(nodeId: string, metrics: NodeMetrics | null): void {
    if (metrics) this.metrics.set(nodeId, metrics);
    else this.metrics.delete(nodeId);
    this.changed();
  }

  private async loadMetrics(nodeId: string): Promise<void> {
    try {
      const metrics = await this.bridge.request('nodes.metrics', { nodeId });
      // An event may have brought newer ones while the answer was on its way.
      if (metrics && (this.metrics.get(nodeId)?.at ?? 0) < metrics.at) this.setMetrics(nodeId, metrics);
    } catch {
      // Metrics are extra: the next read comes as an event within seconds.
    }
  }

  private async loadNotices(): Promise<void> {
    try {
      // Merged, not replaced: a notice raised while the answer was on its way arrived as an event.
      this.addNotices(await this.bridge.request('notices.list', {}));
    } catch {
      // Notices are extra: when the app core cannot be reached, the connection banner says so already.
    }
  }

  /** Dismisses a notice here at once, and in the app core so other windows and later ones drop it too. */
  async dismissNotice(id: string): Promise<void> {
    this.dropNotice(id);
    await this.bridge.request('notices.dismiss', { id });
  }

  private addNotices(notices: Notice[]): void {
    const fresh = notices.filter((n) => !this.closedNotices.has(n.id) && !this.notices.some((known) => known.id === n.id));
    if (fresh.length === 0) return;
    this.notices = [...this.notices, ...fresh];
    this.changed();
  }

  private dropNotice(id: string): void {
    this.closedNotices.add(id);
    if (!this.notices.some((n) => n.id === id)) return;
    this.notices = this.notices.filter((n) => n.id !== id);
    this.changed();
  }

  /**
   * Subscribes to the node's pod batches and feed lines (pods.watch), once, before its rows are asked for: the batches
   * the rows include are told apart by seq. Over when the node is removed or the link to the core drops
   * (a resync subscribes again).
   */
  private watchPods(nodeId: string): void {
    if (this.watches.has(nodeId)) return;
    const watch = new AbortController();
    this.watches.set(nodeId, watch);
    const over = () => this.watches.get(nodeId) === watch && this.watches.delete(nodeId);
    const onProgress = (item: PodWatchItem) => this.batcher.push('lines' in item ? { kind: 'feed', lines: item.lines } : { kind: 'deltas', batch: item });
    this.bridge.request('pods.watch', { nodeId }, { signal: watch.signal, onProgress }).then(over, over);
  }

  private async loadRows(nodeId: string): Promise<void> {
    this.watchPods(nodeId);
    // A retry already scheduled fetches for this request too, keeping the backoff.
    if (this.loading.has(nodeId) || this.rowRetries.get(nodeId)?.timer) return;
    this.loading.add(nodeId);
    let outcome: 'applied' | 'gap' = 'applied';
    try {
      const snapshot = await this.bridge.request('pods.rows', { nodeId });
      // A node removed meanwhile must not come back as an orphan entry in the store.
      if (!this.nodes.some((n) => n.id === nodeId)) return;
      outcome = this.pods.applySnapshot(nodeId, snapshot);
      // The banner was about this failure; the retry got through.
      if (this.rowRetries.delete(nodeId)) this.connectionProblem = null;
      this.changed();
    } catch (err) {
      // The node may be gone already; its removal event cleans up.
      if (this.nodes.some((n) => n.id === nodeId)) {
        this.connectionProblem = errorText(err);
        this.retryRows(nodeId);
        this.changed();
      }
    } finally {
      this.loading.delete(nodeId);
    }
    if (outcome === 'gap') await this.loadRows(nodeId);
  }

  /** Held batches wait for a snapshot, so a failed fetch is tried again (1 s, 2 s, 4 s… at most 30 s). */
  private retryRows(nodeId: string): void {
    const failures = (this.rowRetries.get(nodeId)?.failures ?? 0) + 1;
    const delay = Math.min(ROWS_RETRY_MAX_MS, ROWS_RETRY_FIRST_MS * 2 ** (failures - 1));
    const retry: { failures: number; timer: ReturnType<typeof setTimeout> | null } = { failures, timer: null };
    retry.timer = setTimeout(() => {
      retry.timer = null;
      void this.loadRows(nodeId);
    }, delay);
    this.rowRetries.set(nodeId, retry);
  }

  private cancelRowRetry(nodeId: string): void {
    const timer = this.rowRetries.get(nodeId)?.timer;
    if (timer) clearTimeout(timer);
    this.rowRetries.delete(nodeId);
  }

  private applyIncoming(items: Incoming[], now: number): void {
    const lines: FeedLine[] = [];
    const stale = new Set<string>();
    for (const item of items) {
      if (item.kind === 'feed') for (const line of item.lines) lines.push(line);
      else if (this.pods.applyDeltas(item.batch, now) === 'gap') stale.add(item.batch.nodeId);
    }
    this.feed.push(lines);
    this.pods.noteChanges(lines);
    for (const nodeId of stale) void this.loadRows(nodeId);
    this.podsChanged();
  }

  // The node list's one writer: events and the answers to the requests below come here, nowhere else.

  /** A node's latest record, from an event or from the answer to a request that changed it. */
  private applyNode(node: NodeInfo): void {
    const { nodes, change } = withNode(this.nodes, node);
    this.nodes = nodes;
    if (change === 'added') void this.loadRows(node.id);
    // A busy node's count moves with nearly every batch: that is news for the pod views only.
    if (change === 'podCount') this.podsChanged();
    else if (change !== 'same') this.changed();
  }

  private applyNodes(nodes: readonly NodeInfo[]): void {
    for (const node of nodes) this.applyNode(node);
  }

  /** A node gone, with its rows, metrics and pending retries (its nodeRemoved event may come after). */
  private forgetNode(nodeId: string): void {
    if (!this.nodes.some((n) => n.id === nodeId)) return;
    this.watches.get(nodeId)?.abort();
    this.nodes = withoutNode(this.nodes, nodeId);
    this.metrics.delete(nodeId);
    this.pods.removeNode(nodeId);
    this.cancelRowRetry(nodeId);
    this.changed();
  }

  /** Adds a node and starts connecting; resolves with it once it is in the list. */
  async addNode(spec: AddNodeSpec): Promise<NodeInfo> {
    const added = await this.bridge.request('nodes.add', spec);
    this.applyNode(added);
    return added;
  }

  async addNodes(specs: AddNodeSpec[]): Promise<NodeInfo[]> {
    const added = await this.bridge.request('nodes.addMany', { nodes: specs });
    this.applyNodes(added);
    return added;
  }

  /** Changes a node's settings in place (it reconnects); historyCleared says its pod history went with another machine. */
  async updateNode(nodeId: string, spec: AddNodeSpec): Promise<{ node: NodeInfo; historyCleared: boolean }> {
    const saved = await this.bridge.request('nodes.update', { nodeId, spec });
    this.applyNode(saved.node);
    return saved;
  }

  async startDemo(): Promise<NodeInfo> {
    const demo = await this.bridge.request('nodes.startDemo', {});
    this.applyNode(demo);
    return demo;
  }

  /** Removes a node; resolves with its record as it was, for an undo. */
  async removeNode(nodeId: string): Promise<NodeInfo | undefined> {
    const gone = this.node(nodeId);
    await this.bridge.request('nodes.remove', { nodeId });
    this.forgetNode(nodeId);
    return gone;
  }

  /** Adds a removed node back as it was (undo, see restore-node.ts): a new node, connecting afresh. */
  async restoreNode(node: NodeInfo): Promise<NodeInfo> {
    const back = await restoreNode(this.bridge, node);
    this.applyNode(back);
    return back;
  }

  /** Opens files with the host's own dialog (Electron); [] when the user cancelled. */
  async pickSources(): Promise<NodeInfo[]> {
    const opened = await this.bridge.request('sources.open', {});
    if (opened.status !== 'opened') return [];
    this.applyNodes(opened.nodes);
    return opened.nodes;
  }

  /** Opens snapshot or recording files dropped or picked in the page; resolves with the new sources, in order. */
  async openFiles(files: File[]): Promise<NodeInfo[]> {
    const ids = await openFiles(this.bridge, files);
    // An upload answers with ids only; their records may still be on their way as events: take them now.
    const opened = (await this.bridge.request('nodes.list', {})).filter((n) => ids.includes(n.id));
    this.applyNodes(opened);
    return ids.flatMap((id) => opened.filter((n) => n.id === id));
  }

  async connect(nodeId: string): Promise<void> {
    await this.bridge.request('nodes.connect', { nodeId });
  }

  async disconnect(nodeId: string): Promise<void> {
    await this.bridge.request('nodes.disconnect', { nodeId });
  }

  /** Shows (or clears, with null) the banner about the link to the app core. */
  reportConnection(problem: string | null): void {
    this.connectionProblem = problem;
    this.changed();
  }

  dropPrompt(id: string): void {
    this.prompts = this.prompts.filter((p) => p.id !== id);
    this.changed();
  }

  node(nodeId: string | null): NodeInfo | undefined {
    return this.nodes.find((n) => n.id === nodeId);
  }
}
