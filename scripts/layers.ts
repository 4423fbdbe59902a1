/**
 * The layer rule: where code runs decides what it may import, folder by folder. This is the one place
 * it is written down; scripts/check-layers.ts enforces it (in `npm run typecheck` and in the tests), and
 * tsconfig.browser.json typechecks the browser-safe folders without Node's types.
 *
 * A file belongs to the layer of the longest folder that contains it; anything not listed (the rest of
 * app/, e2e/, scripts/, bench/) is Node code.
 */
export interface Layer {
  name: string;
  /** Folders relative to the project root, each ending in `/`. */
  folders: readonly string[];
  /**
   * 'browser': runs in a page with no Node. Every file it imports, followed transitively into any
   * folder, may import no Node built-in, no Electron and only the packages listed here.
   * 'electron': Electron's main process (Node built-ins and Electron). 'node': Node built-ins.
   */
  runs: 'browser' | 'electron' | 'node';
  /** For browser layers, the only packages its code (and code it reaches) may import. */
  packages?: readonly string[];
  /** Browser layers only: also typechecked without Node's types (tsconfig.browser.json). */
  typecheckWithoutNode?: boolean;
  /**
   * Folders (relative to the root, ending in `/`) its own files may not import from, even where what they
   * import would run in a page: they belong to another side of the app. Type-only imports (`import type`)
   * of their interfaces are allowed: they carry no code.
   */
  mayNotImport?: readonly string[];
}

/** Packages that run in a page as they are. */
const BROWSER_PACKAGES = ['zod', 'diff'];
/** React and its companions: the renderer only. */
export const REACT_PACKAGES = ['react', 'react-dom', '@tanstack/react-virtual'];
export const ELECTRON_PACKAGES = ['electron'];

export const LAYERS: readonly Layer[] = [
  {
    name: 'renderer',
    folders: ['renderer/'],
    runs: 'browser',
    packages: [...BROWSER_PACKAGES, ...REACT_PACKAGES],
    typecheckWithoutNode: true,
  },
  {
    // The design preview runs the real app core in the page (never shipped). Like the core, it is
    // import-checked but not typechecked without Node (see the app core below).
    name: 'design preview',
    folders: ['renderer/dev/'],
    runs: 'browser',
    packages: [...BROWSER_PACKAGES, ...REACT_PACKAGES, 'protobufjs'],
  },
  {
    // The browser-safe core: the UI contract, pod views, field masks, the diff engine, the fleet matrix,
    // what each kind of source is (app/source/kinds/: its label, group, whether it is remembered) and
    // shared utilities.
    name: 'core',
    folders: ['app/contract/', 'app/pod/view/', 'app/mask/', 'app/diff/', 'app/fleet/', 'app/source/kinds/', 'app/util/'],
    runs: 'browser',
    packages: BROWSER_PACKAGES,
    typecheckWithoutNode: true,
  },
  {
    // The pod schema, read with protobufjs from its generated descriptor (no code generated, so the
    // renderer's CSP holds); the only browser-safe folder that may use that library.
    name: 'pod schema',
    folders: ['app/schema/'],
    runs: 'browser',
    packages: [...BROWSER_PACKAGES, 'protobufjs'],
    typecheckWithoutNode: true,
  },
  {
    // The app core: sources, pod sets, histories, diffs, masks, the fleet matrix, notices and questions,
    // with no Node in it; the host (app/host) plugs in what needs Node. It decodes pods itself (app/pod,
    // with protobufjs) and implements the questions a connection asks (app/ssh/ssh-prompter.ts, a type).
    // Not typechecked without Node: pod decoding uses Node's Buffer where it exists (app/pod/wire-reader.ts,
    // kubectl-json.ts) and a link's log files are read as Buffers (app/logs/log-file-access.ts), so its
    // imports are checked instead, transitively, by the rule above.
    name: 'app core',
    folders: ['app/core/'],
    runs: 'browser',
    packages: [...BROWSER_PACKAGES, 'protobufjs'],
    mayNotImport: [
      'app/host/',
      'app/ssh/',
      'app/kubelet/',
      'app/kubelet-rest/',
      'app/podresources/',
      'app/logs/',
      'app/node-info/',
      'app/fs/',
      'app/snapshot/',
      'app/ui-server/',
      'app/cli/',
      'main/',
    ],
  },
  { name: 'electron main', folders: ['main/'], runs: 'electron' },
];

const bySpecificity = [...LAYERS].flatMap((layer) => layer.folders.map((folder) => ({ folder, layer }))).sort((a, b) => b.folder.length - a.folder.length);

/** The layer of a file (path relative to the project root, with `/`); undefined is Node code. */
export function layerOf(relPath: string): Layer | undefined {
  return bySpecificity.find((entry) => relPath.startsWith(entry.folder))?.layer;
}
