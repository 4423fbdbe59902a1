// The `nodescope` CLI: each subcommand lives in its own module and is loaded only when used,
// so `nodescope decode` does not pay for ssh2 or grpc start-up.
import { EXIT } from './exit-codes';
import { printError } from './terminal-text';

type Command = { run(argv: string[]): Promise<number>; summary: string };

const commands: Record<string, () => Promise<Command>> = {
  decode: () => import('./decode-command'),
  sim: () => import('./sim-command'),
  pods: () => import('./pods-command'),
  get: () => import('./get-command'),
  watch: () => import('./watch-command'),
  export: () => import('./export-command'),
  record: () => import('./record-command'),
  compare: () => import('./compare-command'),
  ui: () => import('./ui-command'),
};

async function usage(): Promise<string> {
  const lines = ['usage: nodescope <command> [options]', '', 'commands:'];
  for (const [name, load] of Object.entries(commands)) {
    const summary = await load().then((c) => c.summary, () => '(unavailable)');
    lines.push(`  ${name.padEnd(8)} ${summary}`);
  }
  lines.push('', "Run 'nodescope <command> --help' for a command's options.");
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? EXIT.ok : EXIT.usage;
  }
  const load = commands[name];
  if (!load) {
    printError(`nodescope: unknown command '${name}'\n\n${await usage()}`);
    return EXIT.usage;
  }
  return (await load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    printError(`nodescope: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = EXIT.internal;
  },
);
