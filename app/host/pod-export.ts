import { join } from 'node:path';
import { ContractError, EXPORT_EXTENSION, type ExportFormat, type JobProgress } from '../contract';
import { writeFileAtomicFromChunksAsync } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import { podsAsKubectlSteps } from '../pod/kubectl-json';
import { podsAsKubectlYamlSteps, yamlProblemsText } from '../pod/kubectl-yaml';
import type { FieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { exportFileName } from '../util/default-file-names';
import { runInSlices } from '../util/time-slices';
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

export interface ExportJob {
  /** The field mask: each pod holds exactly the fields it selects (a masked export, not a full kubectl pod). */
  mask?: FieldMask | null;
  /** Stops the export between two pods; the file is then not written at all, not even in part. */
  signal?: AbortSignal;
  /** Pods written so far, of all, at each pause of the work. */
  progress?: (progress: JobProgress) => void;
  /** Longest stretch of printing between two turns of the event loop, in ms (a test sets 0). */
  budgetMs?: number;
}

/**
 * Writes the export atomically; failures say which file and what to do. The pods are printed in time
 * slices (app/util/time-slices.ts), so the server keeps reading its watches meanwhile and the caller sees
 * progress and may cancel: the temporary file is then removed and the target left as it was.
 */
export async function writeExport(target: ExportTarget, pods: Iterable<PodTree> & { readonly length: number }, format: ExportFormat, job: ExportJob = {}): Promise<{ bytes: number; warning?: string }> {
  const { path } = target;
  requireFileKind(path, EXPORT_EXTENSIONS, 'Exports', `pods${EXPORT_EXTENSION[format]}`);
  const total = pods.length;
  try {
    // A kubectl List (JSON or YAML) or one pod per line, written as it is printed: 10,000 pods never sit in
    // memory as one text.
    const stream = async (write: (chunk: Uint8Array) => void) => {
      job.progress?.({ done: 0, total });
      const sink = (text: string) => write(Buffer.from(text));
      const masked = job.mask ? { mask: job.mask } : {};
      const slices = { budgetMs: job.budgetMs ?? 12, onPause: (done: number) => job.progress?.({ done, total }), ...(job.signal ? { signal: job.signal } : {}) };
      if (format === 'yaml') return yamlProblemsText('these pods', await runInSlices(podsAsKubectlYamlSteps(pods, sink, masked), slices));
      await runInSlices(podsAsKubectlSteps(pods, sink, { ndjson: format === 'ndjson', ...masked }), slices);
      return undefined;
    };
    const written = await writeFileAtomicFromChunksAsync(path, stream, { existing: target.replace ? 'replace' : 'refuse' });
    return { bytes: written.bytes, ...(written.result ? { warning: written.result } : {}) };
  } catch (err) {
    // Cancelled: the caller's reason, not a failure to write.
    if (job.signal?.aborted) throw err;
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ContractError('file-exists', `${path} exists already.`, 'Replace it, or choose another name.', 'path');
    }
    const why = whyCannotWrite(err) ?? (err as Error).message;
    throw new ContractError('export-failed', `Could not write ${path}: ${why}.`, 'Choose a folder you can write to and export again.', 'path');
  }
}
