/**
 * Every figure a benchmark reports: printed as one line of the table and kept for `--json FILE`, so runs
 * can be compared. A figure with a target is one call:
 *
 *   figure('export, 30,000 pods', ms, 'ms', { baseline: bareMs, target: { maxRatio: 2.5 } });
 *
 * `ratio` is value / baseline (for times lower is better, for rates higher: say which with maxRatio or
 * minRatio). The JSON is { "figures": [{ name, value, unit, baseline, ratio, target, met }] }, with null for
 * what a figure does not have.
 */
import { fmt } from './measure';

export interface Target {
  /** value / baseline at most (times, memory) or at least (rates). */
  maxRatio?: number;
  minRatio?: number;
  /** value itself at most or at least, in the figure's unit. */
  max?: number;
  min?: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  /** The target in words, e.g. "ratio <= 2.5 and value < 100 ms". */
  target: string | null;
  met: boolean | null;
}

const figures: Figure[] = [];

export function recordedFigures(): readonly Figure[] {
  return figures;
}

function targetText(t: Target, unit: string): string {
  const parts: string[] = [];
  if (t.maxRatio !== undefined) parts.push(`ratio <= ${t.maxRatio}`);
  if (t.minRatio !== undefined) parts.push(`ratio >= ${t.minRatio}`);
  if (t.max !== undefined) parts.push(`<= ${fmt(t.max)} ${unit}`);
  if (t.min !== undefined) parts.push(`>= ${fmt(t.min)} ${unit}`);
  return parts.join(' and ');
}

function meets(t: Target, value: number, ratio: number | null): boolean {
  if ((t.maxRatio !== undefined || t.minRatio !== undefined) && ratio === null) throw new Error('a ratio target needs a baseline');
  return (
    (t.maxRatio === undefined || ratio! <= t.maxRatio) &&
    (t.minRatio === undefined || ratio! >= t.minRatio) &&
    (t.max === undefined || value <= t.max) &&
    (t.min === undefined || value >= t.min)
  );
}

/** Records a figure and prints its line; returns whether its target holds (true without one). */
export function figure(
  name: string,
  value: number,
  unit: string,
  /** `ratio`: when measured otherwise than value / baseline (compareRates' median of interleaved pairs). */
  opts: { baseline?: number; ratio?: number; target?: Target; note?: string } = {},
): boolean {
  const baseline = opts.baseline ?? null;
  const ratio = baseline === null ? null : (opts.ratio ?? value / baseline);
  const target = opts.target ? targetText(opts.target, unit) : null;
  const met = opts.target ? meets(opts.target, value, ratio) : null;
  figures.push({ name, value, unit, baseline, ratio, target, met });
  const parts = [`${fmt(value)} ${unit}`];
  if (baseline !== null) parts.push(`${ratio!.toFixed(2)}x baseline (${fmt(baseline)} ${unit})`);
  if (target) parts.push(`target ${target}`);
  if (opts.note) parts.push(opts.note);
  const verdict = met === null ? '' : met ? '  [target met]' : '  [TARGET MISSED]';
  console.log(`  ${name.padEnd(44)} ${parts.join('  ')}${verdict}`);
  return met ?? true;
}
