import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinModules } from 'node:module';

// The renderer runs sandboxed with no Node: everything it imports must be browser code.
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const BROWSER_PACKAGES = ['react', 'react-dom', '@tanstack/react-virtual', 'zod', 'diff'];
/** The pod schema (which the mask builder reads) loads with protobufjs, and only it may use that library. */
const SCHEMA_PACKAGES = [...BROWSER_PACKAGES, 'protobufjs'];
/** The design preview runs the app core itself in the page (renderer/dev): it also needs the pod schema's proto library. */
const PREVIEW_PACKAGES = SCHEMA_PACKAGES;
const isPreview = (file: string) => relative(here, file).startsWith('dev/');
/**
 * App code the window runs itself, pure with no state or I/O: the pod's YAML printer (from its kubectl
 * JSON) and the diff engine (the per-pod view diffs two JSON texts it has; whole sets are diffed in the
 * core). Not the pod printer from bytes (kubectl-json-value.ts).
 */
const SHARED_APP_FILES = new Set(['app/pod/pod-tree.ts', 'app/pod/kubectl-json-to-yaml.ts', 'app/pod/go-yaml-emitter.ts', 'app/pod/json-value-parser.ts', 'app/pod/json-parser.ts', 'app/pod/go-yaml-rules.ts', 'app/snapshot/exact-json.ts']);
const isSharedApp = (rel: string) => rel.startsWith('app/contract/') || SHARED_APP_FILES.has(rel) || (rel.startsWith('app/diff/') && rel !== 'app/diff/kubectl-json-value.ts');
/** The fleet view's matrix and table exports are the same browser-safe code the CLI prints from (app/fleet). */
const isSharedFleetFile = (rel: string) => rel.startsWith('app/fleet/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.startsWith('test-') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)].map(
    (m) => (m[1] ?? m[2] ?? m[3])!,
  );
}

/** Follows relative imports from the renderer (or its design preview) so app/ code it pulls in is checked too. */
function reachable(preview = false): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = sourceFiles(here).filter((f) => isPreview(f) === preview);
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    const specs = importsOf(file);
    seen.set(file, specs);
    for (const spec of specs) {
      if (!spec.startsWith('.')) continue;
      const base = resolve(dirname(file), spec);
      const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
      const found = candidates.find((c) => /\.tsx?$/.test(c) && safeExists(c));
      if (found) queue.push(found);
    }
  }
  return seen;
}

function safeExists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

describe('renderer imports', () => {
  it('the design preview runs the real hub, which reaches no Node built-in, Electron or Node-only package', () => {
    const problems: string[] = [];
    const files = reachable(true);
    for (const [file, specs] of files) {
      for (const spec of specs) {
        const bare = !spec.startsWith('.');
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (bare && (nodeBuiltins.has(spec) || !PREVIEW_PACKAGES.includes(pkg))) problems.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...files.keys()].some((f) => f.endsWith('app/hub/hub.ts'))).toBe(true);
  });

  it('never reaches Node built-ins, Electron or app-core services', () => {
    const problems: string[] = [];
    for (const [file, specs] of reachable()) {
      const rel = relative(root, file);
      for (const spec of specs) {
        const bare = !spec.startsWith('.');
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        // The pod schema is read with protobufjs from its generated descriptor: no code generated, so the CSP holds.
        const allowed = rel.startsWith('app/schema/') ? SCHEMA_PACKAGES : BROWSER_PACKAGES;
        if (bare && (nodeBuiltins.has(spec) || !allowed.includes(pkg))) problems.push(`${rel} imports ${spec}`);
      }
      // Field masks, the pod schema and the diff engine are browser-safe by design (the mask builder and the
      // diff views run them), as are the time-slice runner the diff engine and the workload matrix step
      // through and the table of shared values the matrix reads pods with; a Node import they gained would
      // still be caught above.
      const shared = ['renderer/', 'app/pod/view/', 'app/mask/', 'app/schema/', 'app/util/time-slices.ts', 'app/util/shared-values.ts'];
      if (!shared.some((dir) => rel.startsWith(dir)) && !isSharedApp(rel) && !isSharedFleetFile(rel)) {
        problems.push(`${rel} is app-core code reached from the renderer`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('checks a real set of files', () => {
    expect([...reachable().keys()].some((f) => f.endsWith('ws-bridge-client.ts'))).toBe(true);
  });
});
