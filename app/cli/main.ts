// The `nodescope` CLI: each subcommand lives in its own module and is loaded only when used,
// so `nodescope decode` does not pay for ssh2 or grpc start-up. The summaries live here so that
// `nodescope --help` loads none of them.
import { EXIT } from './exit-codes';
import { handleOutputFailures } from './output-failures';
import { printError } from './terminal-text';

type Command = { run(argv: string[]): Promise<number> };

const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  decode: { summary: 'print captured pod bytes (.pb) as kubectl get pod -o json (or -o yaml) would', load: () => import('./decode-command') },
  sim: { summary: 'run a simulated kubelet: the Pods API on a UNIX socket (--rest-port: its HTTPS API too; --pod-resources-socket: PodResources)', load: () => import('./sim-command') },
  pods: { summary: "list a node's (or a file's) pods, or several sources at once (table, json, yaml, ndjson)", load: () => import('./pods-command') },
  get: { summary: 'print one pod by UID (json, yaml, ndjson, table)', load: () => import('./get-command') },
  watch: { summary: "follow a node's pod events live, or replay a recording (table, ndjson, json, yaml)", load: () => import('./watch-command') },
  export: { summary: "export a node's (or a file's) pods as a kubectl List (JSON or YAML) or NDJSON (stdout or --file)", load: () => import('./export-command') },
  logs: { summary: "print a container's log from the node's files (or the kubelet's REST API), as kubectl logs prints it (-f, --tail, --previous, ...)", load: () => import('./logs-command') },
  record: { summary: "record a node's pods and every change to a file, until Ctrl-C or --duration", load: () => import('./record-command') },
  mask: { summary: 'list the pod fields a --mask can name (tree) and the mask presets (presets)', load: () => import('./mask-command') },
  diff: { summary: 'compare two sources (nodes, sockets, snapshots, a recording at a time) or one pod on each', load: () => import('./diff-command') },
  node: { summary: "the node around its pods: kubelet version, health, config, feature gates, runtime, journal, runtime vs kubelet", load: () => import('./node-info-command') },
  resources: { summary: "devices, exclusive CPUs and memory per container, and the node's allocatable (PodResources API)", load: () => import('./resources-command') },
  compare: { summary: 'compare the workloads of several nodes or files, drift marked (text, json, csv)', load: () => import('./compare-command') },
  ui: { summary: 'open the desktop UI in a browser (served on 127.0.0.1 only)', load: () => import('./ui-command') },
};

function usage(): string {
  const lines = ['usage: nodescope <command> [options]', '', 'commands:'];
  for (const [name, { summary }] of Object.entries(commands)) lines.push(`  ${name.padEnd(9)} ${summary}`);
  lines.push('', "Run 'nodescope <command> --help' for a command's options.");
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = commands[name];
  if (!command) {
    printError(`nodescope: unknown command '${name}'\nRun 'nodescope --help' for the commands.`);
    return EXIT.usage;
  }
  return (await command.load()).run(rest);
}

handleOutputFailures();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Exit 6 leaves output its reader did not take: still queued on stdout, it would keep the process alive
    // until that reader exits, and its EPIPE would then end it with 0. The command has closed everything else.
    if (code === EXIT.output) process.exit();
  },
  (err: unknown) => {
    printError(`nodescope: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = EXIT.internal;
  },
);
