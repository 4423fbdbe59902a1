import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared real-pod fixtures live outside the project (../shared/fixtures/pods). Tests use them
 * when present and say so when they are not; the project's own fixtures keep tests standing alone.
 */
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const sharedPodsDir = resolve(projectRoot, '..', 'shared', 'fixtures', 'pods');
export const hasSharedPods = existsSync(join(sharedPodsDir, 'pb'));

export interface SharedPodFixture {
  name: string;
  pb: Uint8Array;
  /** kubectl get pod -o json --show-managed-fields */
  jsonWithManagedFields: string;
  /** kubectl get pod -o json */
  jsonDefault: string;
}

export function loadSharedPods(): SharedPodFixture[] {
  if (!hasSharedPods) return [];
  return readdirSync(join(sharedPodsDir, 'pb'))
    .filter((f) => f.endsWith('.pb'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -3);
      return {
        name,
        pb: new Uint8Array(readFileSync(join(sharedPodsDir, 'pb', f))),
        jsonWithManagedFields: readFileSync(join(sharedPodsDir, `${name}.json`), 'utf8'),
        jsonDefault: readFileSync(join(sharedPodsDir, 'kubectl-default', `${name}.json`), 'utf8'),
      };
    });
}
