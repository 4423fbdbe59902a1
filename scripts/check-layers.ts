/**
 * Enforces the layer rule of scripts/layers.ts over a source tree: browser code (followed through every
 * import, into any folder) reaches no Node built-in, no Electron and no package its layer does not list;
 * Electron is imported only in main/ and React only in the renderer. Run by `npm run typecheck`
 * (`check-layers.ts [ROOT]`; exits 1 naming each file and import) and by check-layers.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ELECTRON_PACKAGES, LAYERS, layerOf, REACT_PACKAGES, type Layer } from './layers';

/** The folders whose code is checked (tests run in Node under vitest and are left out). */
const SOURCE_DIRS = ['app', 'main', 'renderer', 'e2e', 'scripts', 'bench'];
const nodeBuiltins = new Set(builtinModules);

export interface LayerReport {
  /** One line per offending import, naming the file, the import and why; empty when the rule holds. */
  problems: string[];
  /** For each browser layer, the files (relative to the root) its code reaches. */
  reached: Map<string, Set<string>>;
}

export function checkLayers(root: string): LayerReport {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(root, join(root, dir)));
  const imports = new Map<string, string[]>();
  const importsOf = (rel: string): string[] => {
    let specs = imports.get(rel);
    if (!specs) imports.set(rel, (specs = importSpecifiers(readFileSync(join(root, rel), 'utf8'))));
    return specs;
  };
  const problems = new Set<string>();

  for (const rel of files) {
    const layer = layerOf(rel);
    if (layer?.mayNotImport) {
      const valueImports = importSpecifiers(readFileSync(join(root, rel), 'utf8'), { values: true }).filter((spec) => !isBare(spec));
      for (const spec of valueImports) {
        const target = resolveRelative(root, rel, spec) ?? toRel(root, resolve(root, dirname(rel), spec));
        const folder = layer.mayNotImport.find((f) => target.startsWith(f));
        if (folder) problems.add(`${rel} imports ${spec}: the ${layer.name} may not import ${folder} (scripts/layers.ts)`);
      }
    }
    for (const spec of importsOf(rel).filter(isBare)) {
      const pkg = packageName(spec);
      if (ELECTRON_PACKAGES.includes(pkg) && layer?.runs !== 'electron') problems.add(`${rel} imports ${spec}: Electron belongs in main/ only`);
      if (REACT_PACKAGES.includes(pkg) && !layer?.packages?.includes(pkg)) problems.add(`${rel} imports ${spec}: React belongs in renderer/ only`);
    }
  }

  const reached = new Map<string, Set<string>>();
  const reachedProblems: { key: string; text: string; path: string[] }[] = [];
  for (const layer of LAYERS.filter((l) => l.runs === 'browser')) {
    const parents = new Map<string, string | undefined>();
    const queue = files.filter((rel) => layerOf(rel) === layer);
    for (const rel of queue) parents.set(rel, undefined);
    for (let i = 0; i < queue.length; i++) {
      const rel = queue[i]!;
      for (const spec of importsOf(rel)) {
        if (!isBare(spec)) {
          const target = resolveRelative(root, rel, spec);
          if (target !== undefined && !parents.has(target)) {
            parents.set(target, rel);
            queue.push(target);
          }
          continue;
        }
        const why = browserProblem(spec, layerOf(rel), layer);
        if (why) reachedProblems.push({ key: `${rel} ${spec}`, text: `${rel} imports ${spec}: ${why}`, path: chain(rel, parents) });
      }
    }
    reached.set(layer.name, new Set(queue));
  }
  // One line per file and import, by its shortest way in (none when the file is browser code itself).
  const shortest = new Map<string, { text: string; path: string[] }>();
  for (const p of reachedProblems) if ((shortest.get(p.key)?.path.length ?? Infinity) > p.path.length) shortest.set(p.key, p);
  for (const { text, path } of shortest.values()) problems.add(path.length <= 1 ? text : `${text} (reached via ${path.join(' → ')})`);
  return { problems: [...problems].sort(), reached };
}

/** Why a bare import may not run in the page, or undefined when it may. */
function browserProblem(spec: string, own: Layer | undefined, from: Layer): string | undefined {
  if (spec.startsWith('node:') || nodeBuiltins.has(spec)) return 'a Node built-in, in code that runs in the browser';
  // A file of another browser layer keeps its own allowance; Node-folder code reached from here gets ours.
  const allowed = own?.runs === 'browser' ? own : from;
  const pkg = packageName(spec);
  return allowed.packages?.includes(pkg) ? undefined : `${pkg} is not a browser package of the ${allowed.name} layer (scripts/layers.ts)`;
}

/** The imports from a file of the layer to `rel`. */
function chain(rel: string, parents: Map<string, string | undefined>): string[] {
  const path = [rel];
  for (let p = parents.get(rel); p !== undefined; p = parents.get(p)) path.unshift(p);
  return path;
}

function sourceFiles(root: string, dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'testdata' ? [] : sourceFiles(root, path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [toRel(root, path)] : [];
  });
}

const toRel = (root: string, path: string): string => relative(root, path).split(sep).join('/');
const isBare = (spec: string): boolean => !spec.startsWith('.') && !spec.startsWith('/');
const packageName = (spec: string): string => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

/**
 * Every module an import, re-export or dynamic import names (type-only imports count: tsc reads them);
 * with `values`, only those whose code is loaded (`import type` and `export type` left out).
 */
export function importSpecifiers(text: string, { values = false } = {}): string[] {
  return [...text.matchAll(/(?:import|export)([^'"]*?)from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)]
    .filter((m) => !values || !/^\s*type\s/.test(m[1] ?? ''))
    .map((m) => (m[2] ?? m[3] ?? m[4])!);
}

function resolveRelative(root: string, fromRel: string, spec: string): string | undefined {
  const base = resolve(root, dirname(fromRel), spec);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((c) => /\.tsx?$/.test(c) && existsSync(c));
  return found === undefined ? undefined : toRel(root, found);
}

/** Where tsconfig.browser.json and the layer list disagree on what is typechecked without Node. */
export function browserTsconfigDrift(root: string): string[] {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.browser.json'), 'utf8')) as { include?: string[] };
  const included = new Set(config.include ?? []);
  const wanted = LAYERS.filter((l) => l.typecheckWithoutNode).flatMap((l) => l.folders.map((f) => f.replace(/\/$/, '')));
  return [
    ...wanted.filter((f) => !included.has(f)).map((f) => `tsconfig.browser.json does not include ${f}, a browser-safe folder in scripts/layers.ts`),
    ...[...included].filter((f) => !wanted.includes(f)).map((f) => `tsconfig.browser.json includes ${f}, which scripts/layers.ts does not list as typechecked without Node`),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  // The project by default, or another tree (a test's); the tsconfig is compared where there is one.
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = [...checkLayers(root).problems, ...(existsSync(join(root, 'tsconfig.browser.json')) ? browserTsconfigDrift(root) : [])];
  if (problems.length > 0) {
    console.error(`The layer rule (scripts/layers.ts) is broken:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    console.error('Move the code to a folder whose layer may import it, or import something browser-safe instead.');
    process.exit(1);
  }
}
