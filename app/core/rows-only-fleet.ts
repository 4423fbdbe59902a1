/**
 * Whether the fleet keeps rows only (docs/app.md, "Rows-only nodes"): more live sources (nodes, not files)
 * than the setting. A node decides as its first pod arrives; when the fleet crosses the setting either way
 * (nodes added or removed, the setting changed), every node connected already switches in place, and a
 * notice says how many did and why.
 */
import type { AppNotices } from './app-notices';
import type { NodeRecord } from './core-state';

export class RowsOnlyFleet {
  /** Nodes an addMany has still to add: counted, so a batch's first nodes choose as its last do. */
  private coming = 0;
  /** What the connected nodes were last switched to (or chose, as the fleet was then). */
  private keeping = false;

  constructor(
    private readonly nodes: ReadonlyMap<string, NodeRecord>,
    private readonly above: () => number,
    private readonly notices: AppNotices,
  ) {}

  /** Live sources open, with those a batch has still to add. */
  private open(): number {
    let live = this.coming;
    for (const record of this.nodes.values()) if (!record.offline) live++;
    return live;
  }

  /** Whether a node deciding now keeps rows only. */
  readonly keepsRowsOnly = (): boolean => this.open() > this.above();

  /** A batch will add `count` more nodes (negative: fewer than said will come, or one of them came). */
  expect(count: number): void {
    this.coming += count;
  }

  /** The fleet or the setting changed: across the setting, every connected node switches (NodeLink.keepRowsOnly). */
  recount(): void {
    const open = this.open();
    const keeping = open > this.above();
    if (keeping === this.keeping) return;
    this.keeping = keeping;
    let switched = 0;
    for (const record of this.nodes.values()) if (record.link?.keepRowsOnly?.(keeping)) switched++;
    if (switched === 0) return;
    const nodes = switched === 1 ? '1 node' : `${switched} nodes`;
    const above = this.above();
    if (keeping) {
      this.notices.raise(
        'rows-only',
        `${nodes} now ${switched === 1 ? 'keeps' : 'keep'} rows only: ${open} nodes are open, over ${above} ("Keep rows only above" in Settings). A pod you open is read from its node; their pod history is no longer kept, and a recording of them stops.`,
        `To keep whole pods, raise "Keep rows only above" in Settings to ${open} or more, or remove nodes.`,
        'info',
      );
    } else {
      this.notices.raise(
        'rows-only',
        `${nodes} ${switched === 1 ? 'keeps' : 'keep'} whole pods again: ${open} nodes are open, not over ${above} ("Keep rows only above" in Settings). Each reads its pods again in the background; their pod history starts then.`,
        'Nothing to do: a node\'s "rows only" tag goes once its pods are read.',
        'info',
      );
    }
  }
}
