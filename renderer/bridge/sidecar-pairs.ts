import { SIDECAR_SUFFIX } from '../../app/contract/ws-wire';

/**
 * Files picked or dropped together, each export with its sidecar (F and F.nodescope.json) when both came;
 * `strays` are sidecars without their export, which hold no pods.
 */
export function pairSidecars<F extends { name: string }>(files: readonly F[]): { uploads: { file: F; sidecar?: F }[]; strays: F[] } {
  const sidecars = new Map(files.filter((f) => f.name.endsWith(SIDECAR_SUFFIX)).map((f) => [f.name.slice(0, -SIDECAR_SUFFIX.length), f]));
  const uploads = files.filter((f) => !f.name.endsWith(SIDECAR_SUFFIX)).map((file) => {
    const sidecar = sidecars.get(file.name);
    sidecars.delete(file.name);
    return sidecar ? { file, sidecar } : { file };
  });
  return { uploads, strays: [...sidecars.values()] };
}
