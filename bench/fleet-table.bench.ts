/**
 * The table over many sources: filtering and sorting the rows of 100 nodes of 110 pods (11,000 rows, the
 * NODE column naming the source) as the view does on every change, against the same actions on one node's
 * 110 rows, in rows per second (interleaved, same run). Target: per row within 3x of one node, i.e. the
 * view's cost grows with the rows and no faster (the sort's n log n aside).
 */
import { podRowFromTree } from '../app/pod/view/pod-row-from-tree';
import type { PodRow } from '../app/contract/pods';
import { generatePods } from '../app/sim/pod-generator';
import { matchesFilter, parseFilter } from '../app/pod/view/filter-language';
import { sortRows } from '../renderer/filter/sort-rows';
import { figure } from './figures';
import { compareRates } from './measure';

const NODES = 100;
const PODS = 110;

export async function fleetTableBench(): Promise<boolean> {
  console.log(`\nfleet table: ${NODES} sources x ${PODS} pods in one table, filtered and sorted`);
  const nowMs = Date.now();
  const rowsOf = (i: number): PodRow[] =>
    generatePods(PODS, { seed: 500 + i, nodeName: `worker-${i}`, nowMs }).map((pod) => ({ ...podRowFromTree(pod), uid: `node-${i}:${i}`, node: `worker-${i}` }));
  const all = Array.from({ length: NODES }, (_, i) => rowsOf(i)).flat();
  const one = rowsOf(0);
  const filter = parseFilter('-phase:Succeeded ns:kube-system,default,shop,platform,analytics');
  const act = (rows: PodRow[]) => () => void sortRows(rows.filter((r) => matchesFilter(filter, r)), { key: 'restarts', descending: true });
  const c = compareRates(act(all), act(one), 1);
  const perRow = c.ratio * (all.length / one.length);
  const t = performance.now();
  act(all)();
  const ms = performance.now() - t;
  return figure(`filter+sort ${all.length.toLocaleString('en-US')} rows, rows/s`, c.candidate * all.length, 'rows/s', {
    baseline: c.baseline * one.length,
    ratio: perRow,
    target: { minRatio: 0.33 },
    note: `one pass ${ms.toFixed(1)} ms`,
  });
}
