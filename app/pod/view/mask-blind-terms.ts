import { ROW_FIELD_SOURCES, unselectedFields, type RowField } from './pod-field-sources';
import type { FilterTerm, ParsedFilter } from './filter-language';

/** The row field each kind of term reads; a text term reads several, and finds something while any is kept. */
function fieldOf(term: FilterTerm): RowField | null {
  switch (term.kind) {
    case 'ns':
      return 'namespace';
    case 'node':
      return 'node';
    case 'phase':
      return 'status';
    case 'owner':
      return 'owner';
    case 'label':
      return 'labels';
    case 'is':
      return ({ static: 'isStatic', deleting: 'status', ready: 'ready', notready: 'ready', restarted: 'restarts' } as const)[term.flag];
    case 'text':
    case 'probe':
      return null;
  }
}

const termText = (t: FilterTerm): string => {
  const body =
    t.kind === 'text' ? t.text : t.kind === 'label' ? `label:${t.key}${t.op === 'exists' ? '' : t.op + t.value}` : t.kind === 'is' ? `is:${t.flag}` : t.kind === 'probe' ? `probe:${t.state}` : `${t.kind}:${t.values.join(',')}`;
  return `${t.negate ? '-' : ''}${body}`;
};

export interface MaskBlindness {
  /** The terms that read a field the mask left out, as typed (normalised). */
  terms: string[];
  /** The mask paths that would let them see: what "add to the mask" adds. */
  paths: string[];
}

/**
 * The filter terms the node's field mask leaves blind: they read a field the mask left out, so they
 * match nothing (or everything, negated) whatever the pods hold. Null when every term can see.
 */
export function maskBlindness(filter: ParsedFilter, maskPaths: readonly string[]): MaskBlindness | null {
  const leftOut = new Set(unselectedFields(ROW_FIELD_SOURCES, maskPaths));
  const terms: string[] = [];
  const paths = new Set<string>();
  for (const term of filter.terms) {
    const field = fieldOf(term);
    if (!field || !leftOut.has(field)) continue;
    terms.push(termText(term));
    for (const path of ROW_FIELD_SOURCES[field]) paths.add(path);
  }
  return terms.length ? { terms, paths: [...paths] } : null;
}

/** The sentence saying so, for the note above the table and for its empty state. */
export const blindnessText = (b: MaskBlindness): string =>
  `${b.terms.join(' ')} ${b.terms.length === 1 ? 'needs' : 'need'} ${b.paths.join(', ')}, which this node's field mask leaves out: no pod can match ${b.terms.length === 1 ? 'it' : 'them'}.`;

/** The table's text when no row matches: why, when the mask is the reason. */
export function noMatchText(filter: ParsedFilter, maskPaths: readonly string[]): string {
  const blind = maskBlindness(filter, maskPaths);
  return blind ? blindnessText(blind) : 'No pod matches the filter.';
}
