/**
 * Ticking and unticking fields of the mask tree: the canonical paths after choosing or dropping one
 * field. Choosing a field chooses everything under it; dropping a field inside a chosen one keeps
 * its siblings. Browser-safe (the builder runs it on every tick).
 */
import { parseFieldMask } from './field-mask';
import { maskTreeNode } from './mask-tree';

const canonical = (paths: readonly string[]): string[] => (paths.length === 0 ? [] : [...parseFieldMask(paths.join(',')).paths]);

const under = (path: string, root: string) => path === root || path.startsWith(`${root}.`);

/** The paths with `path` (and so everything under it) chosen. */
export function choosePath(paths: readonly string[], path: string): string[] {
  return canonical([...paths, path]);
}

/** The paths with `path` (and everything under it) dropped; a chosen field above it keeps the rest. */
export function dropPath(paths: readonly string[], path: string): string[] {
  const ancestor = paths.find((p) => path.startsWith(`${p}.`));
  const kept = paths.filter((p) => !under(p, path) && p !== ancestor);
  if (ancestor) {
    let node = maskTreeNode(ancestor);
    for (const segment of path.slice(ancestor.length + 1).split('.')) {
      if (!node) break;
      for (const child of node.children) if (child.name !== segment) kept.push(child.path);
      node = node.children.find((c) => c.name === segment);
    }
  }
  return canonical(kept);
}

/** The paths of both masks (a preset added to what is chosen). */
export function unionPaths(a: readonly string[], b: readonly string[]): string[] {
  return canonical([...a, ...b]);
}
