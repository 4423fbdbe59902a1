/**
 * A pod file (a snapshot or a recording), Node side: what the file holds decides which, so the CLI names
 * it by its path and the app opens it from the open dialog or a drop (host.ts), never as a live link.
 * `nodescope ui FILE` opens it so; `nodescope logs RECORDING` reads the logs the recording kept.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SourceKindNode } from '../source-registry';

/** Extensions Nodescope writes or reads pod files with. */
export const POD_FILE_EXTENSIONS = ['.json', '.ndjson', '.jsonl', '.yaml', '.yml', '.pb', '.bin', '.protobuf', '.recording'];

export const FILE_SOURCE: SourceKindNode<{ kind: 'file'; path: string }> = {
  kind: 'file',
  argument: {
    // Anything containing '/', ending in a pod file extension, or that exists here as a file, since an SSH
    // destination (host, user@host, ssh_config alias) has none of these.
    parse(arg) {
      const lower = arg.toLowerCase();
      if (arg.includes('/') || POD_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) return { kind: 'file', path: arg };
      if (existsSync(arg) && statSync(arg).isFile()) return { kind: 'file', path: arg };
      return undefined;
    },
  },
  ui: (source) => ({ open: resolve(source.path) }),
  logs: { from: 'recording', read: async (source, opts, read) => (await import('../../cli/recorded-logs')).recordedPodLogs(source.path, opts, read) },
};
