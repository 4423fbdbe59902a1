import { ContractError, type ExportFormat } from '../contract';
import { writeFileAtomicFromChunks } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import { streamPodsAsKubectl } from '../pod/kubectl-json';
import type { FieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';

const EXPORT_EXTENSIONS = ['.json', '.ndjson', '.jsonl'];

/**
 * Writes the export atomically; failures say which file and what to do. With a mask, each pod holds
 * exactly the fields it selects (a masked export, not a full kubectl pod).
 */
export async function writeExport(path: string, pods: PodTree[], format: ExportFormat, mask: FieldMask | null = null): Promise<number> {
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
    // A kubectl List or one pod per line, written as it is printed: 10,000 pods never sit in memory as one text.
    const stream = (write: (chunk: Uint8Array) => void) => streamPodsAsKubectl(pods, (text) => write(Buffer.from(text)), { ndjson: format === 'ndjson', ...(mask ? { mask } : {}) });
    return writeFileAtomicFromChunks(path, stream).bytes;
  } catch (err) {
    const why = whyCannotWrite(err) ?? (err as Error).message;
    throw new ContractError('export-failed', `Could not write ${path}: ${why}.`, 'Choose a folder you can write to and export again.');
  }
}
