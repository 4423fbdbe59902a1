/** The table formats of `pods` and `get` (-o table, -o wide, -o custom-columns=SPEC), as kubectl prints them. */
import type { FieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { CUSTOM_COLUMNS, customColumnsRows, parseCustomColumns } from './custom-columns';
import { formatTable, podTableRows } from './pod-table';

/** The -o values that print a table; `custom-columns=SPEC` stands for every -o custom-columns=... */
export const TABLE_OUTPUTS = ['table', 'wide', `${CUSTOM_COLUMNS}SPEC`] as const;

/** The table -o values' help, for pods and get. */
export const TABLE_HELP = `tables (as kubectl's):
  -o table                   NAMESPACE NAME READY STATUS RESTARTS AGE, STATUS and RESTARTS as kubectl
                             computes them (CrashLoopBackOff, Init:0/1, Terminating, "5 (3m ago)")
  -o wide                    also IP, NODE, NOMINATED NODE and READINESS GATES
  -o custom-columns=SPEC     HEADER:PATH,... e.g. NAME:.metadata.name,IP:.status.podIP (values a path
                             does not reach show as <none>)`;

export const isTableOutput = (output: string): boolean => output === 'table' || output === 'wide' || output.startsWith(CUSTOM_COLUMNS);

/** Checks -o custom-columns' spec before anything is fetched, so a typo costs no connection. */
export function checkTableOutput(output: string): void {
  if (output.startsWith(CUSTOM_COLUMNS)) parseCustomColumns(output.slice(CUSTOM_COLUMNS.length));
}

export interface TableOptions {
  /** What ages count to: now for a live node, a file's own time offline. */
  now: number;
  mask?: FieldMask;
  /** kubectl drops the NAMESPACE column when one namespace was asked for (-n). */
  namespaceColumn: boolean;
}

/** The pods, in the order given, as the table `output` names: the header, then a row per pod. */
export function tableRows(pods: readonly PodTree[], output: string, opts: TableOptions): string[][] {
  if (output.startsWith(CUSTOM_COLUMNS)) return customColumnsRows(pods, parseCustomColumns(output.slice(CUSTOM_COLUMNS.length)), opts.mask);
  return podTableRows(pods, opts.now, opts.mask, { namespace: opts.namespaceColumn, wide: output === 'wide' });
}

export const tableText = (pods: readonly PodTree[], output: string, opts: TableOptions): string => formatTable(tableRows(pods, output, opts));
