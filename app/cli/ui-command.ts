import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createHost } from '../host/host';
import { defaultStateDir } from '../host/state-dir';
import { writeLaunchPage, type LaunchPage } from '../ui-server/launch-page';
import { catchStopSignal } from '../process/stop-signals';
import { ensureRendererBuilt } from '../ui-server/renderer-build';
import { startUiServer } from '../ui-server/ui-server';
import { formatSize, MemoryBudgetSchema, parseSize, type AddNodeSpec } from '../contract';
import { expandHostPatterns, HostPatternError } from '../ssh/ssh-host-patterns';
import { EXIT } from './exit-codes';
import { readHostsFile } from './fleet-sources';
import { UsageError } from './usage-error';
import { resolveSource } from './pod-source';
import { sourceKindNode } from '../source/source-registry';
import { printError } from './terminal-text';
import { usageHint } from './usage-hint';

const HELP = `usage: nodescope ui [--port N] [--no-open] [--no-demo] [--ssh-config FILE] [--hosts-file FILE] [--memory-budget SIZE] [--rows-only-above N] [SOURCE...]

Serves the Nodescope UI on http://127.0.0.1 and prints its URL, which carries a random access
token made for this run: only a page opened with that exact URL can talk to the app. Stop with Ctrl-C.
Each SOURCE opens in the UI: a FILE (a snapshot: kubectl or Nodescope JSON/NDJSON, a .pb; or a
Nodescope recording) as an offline source; an ssh destination, an ssh_config host pattern ('worker-*')
or unix:SOCKET as nodes added to the node list (those already in it are not added twice).

  --hosts-file FILE
               also add the sources listed in FILE: one per line, # comments, patterns allowed

  --port N     listen on port N (default, or 0: any free port; the URL names it)
  --no-open    do not open a browser, only print the URL
  --no-demo    do not start the simulated demo node (by default it starts while
               no node has been added yet and no FILE is given; the UI can start it any time)
  --ssh-config FILE
               read this ssh_config instead of ~/.ssh/config (like ssh -F)
  --memory-budget SIZE
               what the app may hold of pods (current pods, history, crash logs) for this run,
               e.g. 2GiB or 512M (default: the one set in Settings, else 1 GiB); past it the oldest
               history goes first, and the UI says what went
  --rows-only-above N
               for this run, past N nodes open a node keeps only what the table and the matrix show of
               its pods, and a pod opened is read from the node (default: the one set in Settings, else 200)`;

/** --memory-budget's size, held to what the Settings dialog takes; undefined when not given. */
export function parseMemoryBudget(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let bytes: number;
  try {
    bytes = parseSize(text);
  } catch (err) {
    throw new UsageError(`--memory-budget: ${(err as Error).message}`);
  }
  const checked = MemoryBudgetSchema.safeParse(bytes);
  if (!checked.success) throw new UsageError(`--memory-budget: ${checked.error.issues[0]!.message}, not ${formatSize(bytes)}.`);
  return bytes;
}

/** --rows-only-above's number of nodes, held to what the Settings dialog takes; undefined when not given. */
function parseRowsOnlyAbove(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--rows-only-above: "${text}" is not a number of nodes: write a whole number, e.g. 200.`);
  return Number(text);
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new Error(`--port must be a number from 0 (any free port) to 65535, not '${text}'.`);
  }
  return port;
}

/**
 * A browser opens only where someone can see it: a desktop session, not a headless server or CI.
 * It is given a private page that forwards to the URL, never the URL itself: the opener's and the
 * browser's command lines are readable by every local user, and the token is the key to the app.
 */
function openBrowser(url: string, stateDir: string): LaunchPage | null {
  const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (!hasDisplay) return null;
  const page = writeLaunchPage(url, stateDir);
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [page.fileUrl]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', page.fileUrl]]
        : ['xdg-open', [page.fileUrl]];
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => printError(`nodescope: could not start ${command}; open the URL above yourself.`));
  child.unref();
  return page;
}

/**
 * The files to open and the nodes to add that the command line and --hosts-file name (docs/cli.md, "Many
 * sources"), each as its kind takes it into the UI (app/source/source-registry.ts): the names expanded with
 * ssh_config's Host patterns first, each once, then the nodes named exactly.
 */
export function uiSources(args: string[], hostsFile: string | undefined, sshConfig: string | undefined): { files: string[]; nodes: AddNodeSpec[] } {
  const files: string[] = [];
  const expanded = new Map<string, AddNodeSpec>();
  const exact: AddNodeSpec[] = [];
  for (const arg of [...args, ...(hostsFile !== undefined ? readHostsFile(hostsFile) : [])]) {
    const source = resolveSource(arg, undefined);
    const entry = sourceKindNode(source.kind).ui?.(source);
    if (!entry) throw new UsageError(`'${arg}' cannot be opened in the UI: give an SSH destination, unix:PATH or a pod file.`);
    if ('open' in entry) files.push(entry.open);
    else if ('add' in entry) exact.push(entry.add);
    else for (const host of expandHosts(entry.expand, sshConfig)) expanded.set(JSON.stringify(entry.node(host)), entry.node(host));
  }
  return { files, nodes: [...expanded.values(), ...exact] };
}

function expandHosts(pattern: string, sshConfig: string | undefined): string[] {
  try {
    return expandHostPatterns([pattern], sshConfig);
  } catch (err) {
    if (err instanceof HostPatternError) throw new UsageError(err.message);
    throw err;
  }
}

/** Runs until SIGINT, SIGTERM or SIGHUP; resolves with the exit code. */
export async function run(argv: string[]): Promise<number> {
  let options: { port?: number; open: boolean; demo: boolean; sshConfig?: string; memoryBudget?: number; rowsOnlyAbove?: number; files: string[]; nodes: AddNodeSpec[] };
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        'no-demo': { type: 'boolean', default: false },
        'ssh-config': { type: 'string' },
        'hosts-file': { type: 'string' },
        'memory-budget': { type: 'string' },
        'rows-only-above': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) {
      console.log(HELP);
      return EXIT.ok;
    }
    const sources = uiSources(positionals, values['hosts-file'], values['ssh-config']);
    options = {
      port: parsePort(values.port),
      open: !values['no-open'],
      demo: !values['no-demo'],
      sshConfig: values['ssh-config'],
      memoryBudget: parseMemoryBudget(values['memory-budget']),
      rowsOnlyAbove: parseRowsOnlyAbove(values['rows-only-above']),
      ...sources,
    };
  } catch (err) {
    printError(`nodescope ui: ${err instanceof Error ? err.message : String(err)}\n${usageHint('ui')}`);
    return EXIT.usage;
  }

  const rendererDir = await ensureRendererBuilt((line) => printError(line));
  const stateDir = defaultStateDir();
  const inspector = await createHost({
    mode: 'browser',
    stateDir,
    ...(options.demo ? {} : { demo: false }),
    ...(options.sshConfig ? { sshConfigFile: options.sshConfig } : {}),
    settings: {
      ...(options.memoryBudget !== undefined ? { memoryBudget: options.memoryBudget } : {}),
      ...(options.rowsOnlyAbove !== undefined ? { rowsOnlyAbove: options.rowsOnlyAbove } : {}),
    },
    files: options.files,
    nodes: options.nodes,
  });
  let server;
  try {
    server = await startUiServer({
      host: inspector,
      rendererDir,
      port: options.port,
      openUpload: inspector.openUploaded,
    });
  } catch (err) {
    await inspector.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      printError(`nodescope ui: port ${options.port} is in use; pick another with --port, or leave it out for a free one.`);
      return EXIT.usage;
    }
    throw err;
  }

  // Listening before the URL is out: a stop that comes right after it still closes everything. The terminal
  // it runs in closing (SIGHUP) stops it too, or the launch page with the token would stay on disk.
  const stop = catchStopSignal();
  console.log(`Nodescope is running at ${server.url}`);
  console.log('Open that exact URL (it carries the access token). Press Ctrl-C to stop.');
  const launchPage = options.open ? openBrowser(server.url, stateDir) : null;

  // The first signal gives the others back: a second one while the server closes ends the process.
  await stop.received;
  launchPage?.remove();
  await server.close();
  await inspector.close();
  return EXIT.ok;
}
