import { join } from 'node:path';
import { ContractError, EXPORT_EXTENSION, type ExportFormat } from '../contract';
import { writeFileAtomicFromChunks } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import { streamPodsAsKubectl } from '../pod/kubectl-json';
import { streamPodsAsKubectlYaml, yamlProblemsText } from '../pod/kubectl-yaml';
import type { FieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { exportFileName } from '../util/default-file-names';
import { requireFileKind } from './written-file-kind';

const EXPORT_EXTENSIONS = ['.json', '.ndjson', '.jsonl', '.yaml', '.yml'];

export interface ExportTarget {
  path: string;
  /** Whether an existing file there may be replaced: the user agreed (a native dialog asks itself). */
  replace: boolean;
}

export interface ExportTargetRequest {
  /** The path the page typed, if any. */
  path: string | undefined;
  /** The page says the user agreed to replace an existing file at that path. */
  replace: boolean;
  format: ExportFormat;
  nodeLabel: string;
  exportDir: string;
  /** The host's native save dialog (Electron); null when cancelled. */
  pickSavePath: ((suggestedPath: string) => Promise<string | null>) | undefined;
}

/**
 * Where an export goes. With a native save dialog only the dialog names the file: a page that is
 * compromised could otherwise write pod JSON over any file of the user's. Without one (browser
 * mode, where the page holds the access token) the typed absolute path is used. Null: cancelled.
 */
export async function chooseExportTarget(request: ExportTargetRequest): Promise<ExportTarget | null> {
  const { pickSavePath } = request;
  if (pickSavePath) {
    if (request.path !== undefined) {
      throw new ContractError('invalid-input', 'Export files are chosen in the save dialog here, not by the page.', 'Use Export… and pick the file in the dialog.', 'path');
    }
    const suggested = join(request.exportDir, exportFileName(request.nodeLabel, EXPORT_EXTENSION[request.format], new Date()));
    const picked = await pickSavePath(suggested);
    return picked === null ? null : { path: picked, replace: true };
  }
  if (request.path === undefined) {
    throw new ContractError('invalid-input', 'Give a file path for the export.', `For example ${join(request.exportDir, 'pods.json')}.`, 'path');
  }
  return { path: request.path, replace: request.replace };
}

/**
 * Writes the export atomically; failures say which file and what to do. With a mask, each pod holds
 * exactly the fields it selects (a masked export, not a full kubectl pod).
 */
export async function writeExport(target: ExportTarget, pods: Iterable<PodTree>, format: ExportFormat, mask: FieldMask | null = null): Promise<{ bytes: number; warning?: string }> {
  const { path } = target;
  requireFileKind(path, EXPORT_EXTENSIONS, 'Exports', `pods${EXPORT_EXTENSION[format]}`);
  try {
    // A kubectl List (JSON or YAML) or one pod per line, written as it is printed: 10,000 pods never sit in
    // memory as one text.
    const stream = (write: (chunk: Uint8Array) => void) => {
      const sink = (text: string) => write(Buffer.from(text));
      const masked = mask ? { mask } : {};
      if (format === 'yaml') return yamlProblemsText('these pods', streamPodsAsKubectlYaml(pods, sink, masked));
      streamPodsAsKubectl(pods, sink, { ndjson: format === 'ndjson', ...masked });
      return undefined;
    };
    const written = writeFileAtomicFromChunks(path, stream, { existing: target.replace ? 'replace' : 'refuse' });
    return { bytes: written.bytes, ...(written.result ? { warning: written.result } : {}) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ContractError('file-exists', `${path} exists already.`, 'Replace it, or choose another name.', 'path');
    }
    const why = whyCannotWrite(err) ?? (err as Error).message;
    throw new ContractError('export-failed', `Could not write ${path}: ${why}.`, 'Choose a folder you can write to and export again.', 'path');
  }
}
