// The seam, shown: a kind of source no file of Nodescope knows, registered here in one call (its Node side
// and what it is), is opened by the app's host and named on the command line with nothing else changed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { detachedCall, type AddNodeSpec, type NodeInfo, type NodeSpec } from '../contract';
import { run as runLogs } from '../cli/logs-command';
import { uiSources } from '../cli/ui-command';
import { localFileAccess } from '../logs/local-file-access';
import { connectToLocalSocket, connectToSource } from '../cli/kubelet-connection';
import { parseNodeArgs } from '../cli/node-options';
import { resolveSource } from '../cli/pod-source';
import { createHost, type Host } from '../host/host';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { pollUntil } from '../testing/poll-until';
import type { SourceKindInfo } from './kinds/source-kind';
import { labelOf } from './kinds/source-kinds';
import { registerSourceKind } from './source-registry';

/** The toy kind: `toy:NAME`, a simulated kubelet of that name on this machine. */
const kubelets = new Map<string, string>();
const socketOf = (name: string) => kubelets.get(name) ?? `/nonexistent/${name}.sock`;

const TOY_INFO = {
  kind: 'toy',
  defaultLabel: (spec: { name: string }) => `toy ${spec.name}`,
  describe: (spec: { name: string }) => `Toy kubelet ${spec.name}`,
  userAdded: false,
  offline: false,
  simulated: false,
  capabilities: [],
  group: () => 'Toys',
  cliSource: (spec: { name: string }) => [`toy:${spec.name}`],
  sameSource: (a: { name: string }, b: { name: string }) => a.name === b.name,
  sameMachine: (a: { name: string }, b: { name: string }) => a.name === b.name,
  addAgain: 'add',
} as unknown as SourceKindInfo;

let dir: PrivateSocketDir;
let sim: SimulatedKubelet;
let host: Host;

beforeAll(async () => {
  registerSourceKind<{ kind: 'toy'; name: string }>(
    {
      kind: 'toy',
      argument: { scheme: 'toy:', parse: (arg) => ({ kind: 'toy', name: arg.slice('toy:'.length) }) },
      host: (context) => ({ openLink: (request) => context.kubeletLink(request, { localSocket: socketOf((request.spec as unknown as { name: string }).name) }) }),
      connect: (source, opts) => connectToLocalSocket({ ...opts, local: socketOf(source.name) }),
      // In the UI's node list as it is named; its log files on this machine, as a socket's are.
      ui: (source) => ({ add: { kind: 'toy', name: source.name } as unknown as AddNodeSpec }),
      logs: { from: 'node files', open: async () => ({ access: localFileAccess(), close: () => {} }) },
    },
    TOY_INFO,
  );
  dir = createPrivateSocketDir('toy.sock');
  sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 7, seed: 21 });
  kubelets.set('alpha', dir.socketPath);
  host = await createHost({ mode: 'browser', stateDir: mkdtempSync(join(tmpdir(), 'ns-toy-kind-')), demo: false });
});
afterAll(async () => {
  await host?.close();
  await sim?.stop();
  dir?.remove();
});

describe('a source kind registered in one place', () => {
  it('is what the window asks of it: its label, from the kind', () => {
    const spec = { kind: 'toy', name: 'alpha' } as unknown as NodeSpec;
    expect(labelOf(spec)).toBe('toy alpha');
  });

  it('is opened by the host as a live source, its pods listed', async () => {
    // Straight to the handler: the contract's schema knows the built-in kinds only (a new kind adds its spec there).
    const added = await host.handlers['nodes.add']({ kind: 'toy', name: 'alpha' } as never, detachedCall());
    const live = await pollUntil(
      'the toy node live with its pods',
      async () => ((await host.handlers['nodes.list']({}, detachedCall())) as NodeInfo[]).find((n) => n.id === added.id),
      (n): n is NodeInfo => n?.state.phase === 'live' && n.podCount === 7,
    );
    expect(live.label).toBe('toy alpha');
  });

  it('is added to the UI\'s node list by nodescope ui, beside the kinds built in', () => {
    expect(uiSources(['toy:alpha', 'unix:/run/pods.sock'], undefined, undefined)).toEqual({
      files: [],
      nodes: [{ kind: 'toy', name: 'alpha' }, { kind: 'unix', socketPath: '/run/pods.sock' }],
    });
  });

  it('has its container logs read by nodescope logs where the kind says they are', async () => {
    const logDir = resolve(dirname(fileURLToPath(import.meta.url)), '../logs/testdata/var-log-pods');
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, done?: (err?: Error) => void) => {
      out.push(Buffer.from(chunk).toString());
      done?.();
      return true;
    }) as typeof process.stdout.write);
    try {
      expect(await runLogs(['toy:alpha', 'default/web', '-c', 'app', '--log-dir', logDir])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    expect(out.join('')).toBe(readFileSync(join(logDir, '..', 'expected', 'plain.out'), 'utf8'));
  });

  it('is named on the command line by its scheme and connected to by the CLI', async () => {
    const opts = await parseNodeArgs(['toy:alpha'], ['table']);
    const source = resolveSource(opts.node, opts.local);
    expect(source).toEqual({ kind: 'toy', name: 'alpha' });
    const connection = await connectToSource(source as never, opts);
    try {
      const { pods } = await connection.client.listPods();
      expect(pods).toHaveLength(7);
    } finally {
      await connection.close();
    }
  });
});
