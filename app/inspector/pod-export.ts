import { ContractError, type ExportFormat } from '../contract';
import { podsToKubectlListJson, podToNdjsonLine } from '../pod/kubectl-json';
import type { PodTree } from '../pod/pod-tree';
import { writeFileAtomic } from '../fs/atomic-file';

/** The file text of an export: a kubectl `List`, or one kubectl pod object per line. */
export function exportText(pods: PodTree[], format: ExportFormat): string {
  return format === 'list' ? podsToKubectlListJson(pods) : pods.map((p) => `${podToNdjsonLine(p)}\n`).join('');
}

const EXPORT_EXTENSIONS = ['.json', '.ndjson', '.jsonl'];

/** Writes the export atomically; failures say which file and what to do. */
export async function writeExport(path: string, pods: PodTree[], format: ExportFormat): Promise<number> {
  // The UI can name any path; limiting the kind of file keeps a slip (or a hostile page) from
  // replacing a shell profile or a key with pod JSON.
  if (!EXPORT_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext))) {
    throw new ContractError(
      'invalid-input',
      `Exports are saved as ${EXPORT_EXTENSIONS.join(', ')} files, not ${path}.`,
      `Name the file with one of those extensions, e.g. pods${format === 'list' ? '.json' : '.ndjson'}.`,
    );
  }
  try {
    return await writeFileAtomic(path, exportText(pods, format));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message;
    throw new ContractError('export-failed', `Could not write ${path}: ${why}.`, 'Choose a folder you can write to and export again.');
  }
}
