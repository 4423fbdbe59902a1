/** Proto files read from proto/ on disk (Node only): the kubelet API, and the source of the pod descriptor. */
import protobuf from 'protobufjs';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The proto/ folder, found from this file in a checkout or a packaged app. */
export function protoDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [resolve(here, '..', '..', 'proto'), resolve(here, '..', 'proto'), resolve(here, 'proto')]) {
    if (existsSync(join(candidate, 'k8s.io'))) return candidate;
  }
  throw new Error(`cannot find the proto/ folder near ${here}; reinstall Nodescope`);
}

/** Loads proto files relative to proto/, resolving imports there too. */
export function loadProtoRoot(files: string[]): protobuf.Root {
  const dir = protoDir();
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith(dir) ? target : join(dir, target));
  root.loadSync(files.map((f) => join(dir, f)), { keepCase: true });
  root.resolveAll();
  return root;
}
