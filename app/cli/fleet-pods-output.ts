/**
 * `nodescope pods SRC SRC...` output. kubectl has no place for a pod's source, and writing one into the
 * pod (an annotation) would change the pod, so each format carries it beside the pods (docs/cli.md, "Many
 * sources"):
 * - tables (-o table, wide, custom-columns): a NODE column first, the SOURCE as given;
 * - ndjson: one `{"source": SRC, "pod": POD}` line per pod (`jq -c .pod` gives kubectl's NDJSON back),
 *   `{"source": SRC, "error": MESSAGE}` for a source that failed;
 * - json: `{"apiVersion": "nodescope.io/v1", "kind": "PodListsBySource", "items": [{"source": SRC, "list": LIST}]}`,
 *   each LIST exactly the kubectl List `pods SRC -o json` prints (`jq '.items[].list'`);
 * - yaml: one kubectl List document per source, `---` between them, each headed by a `# source: SRC` comment.
 */
import { podsToKubectlListJson, podToNdjsonLine, quote } from '../pod/kubectl-json';
import { streamPodsAsKubectlYaml } from '../pod/kubectl-yaml';
import type { SourcePods } from './fleet-sources';
import { writeStdout } from './node-command';
import { warnYamlProblems } from './pod-output';
import { formatTable } from './pod-table';
import { isTableOutput, tableRows, type TableOptions } from './table-output';
import { terminalLine } from './terminal-text';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Every source's pods in one table with a NODE column; sources in the order given, each one's pods in the order given. */
export function fleetPodTable(results: readonly SourcePods[], output = 'table', table: Omit<TableOptions, 'now'> = { namespaceColumn: true }): string {
  let header: string[] = [];
  const rows: string[][] = [];
  for (const r of results) {
    const [head, ...own] = tableRows('pods' in r ? r.pods : [], output, { ...table, now: 'pods' in r ? r.asOf : Date.now() });
    header = head!;
    for (const row of own) rows.push([r.id, ...row]);
  }
  if (!results.length) header = tableRows([], output, { ...table, now: Date.now() })[0]!;
  return formatTable([['NODE', ...header], ...rows]);
}

/** `format` is a list format or a table -o (table-output.ts); `table` says how a table is laid out. */
export async function printFleetPods(results: readonly SourcePods[], format: string, showManagedFields: boolean, table?: Omit<TableOptions, 'now'>): Promise<void> {
  const options = { showManagedFields };
  const pending: Promise<void>[] = [];
  const out = (text: string) => pending.push(writeStdout(text));
  if (isTableOutput(format)) out(`${fleetPodTable(results, format, table)}\n`);
  else if (format === 'ndjson') {
    for (const r of results) {
      if ('error' in r) out(`{"source":${quote(r.id)},"error":${quote(messageOf(r.error))}}\n`);
      else for (const pod of r.pods) out(`{"source":${quote(r.id)},"pod":${podToNdjsonLine(pod, options)}}\n`);
    }
  } else if (format === 'json') {
    out('{\n    "apiVersion": "nodescope.io/v1",\n    "kind": "PodListsBySource",\n    "items": [');
    results.forEach((r, i) => {
      out(`${i ? ',' : ''}\n        {"source": ${quote(r.id)}, `);
      if ('error' in r) out(`"error": ${quote(messageOf(r.error))}}`);
      else {
        out(`"list": ${podsToKubectlListJson(r.pods, options).replace(/\n$/, '')}}`);
      }
    });
    out('\n    ]\n}\n');
  } else {
    results.forEach((r, i) => {
      // A comment keeps each document a plain kubectl List while saying whose it is.
      out(`${i ? '---\n' : ''}# source: ${terminalLine(r.id)}${'error' in r ? ` (not read: ${terminalLine(messageOf(r.error))})` : ''}\n`);
      if ('pods' in r) warnYamlProblems(`the pods of ${r.id}`, streamPodsAsKubectlYaml(r.pods, out, options));
    });
  }
  await Promise.all(pending);
}
