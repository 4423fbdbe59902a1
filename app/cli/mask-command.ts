/**
 * `nodescope mask tree [PATH]` and `nodescope mask presets`: the fields a mask can name, and the
 * presets `--mask @NAME` can use, as the builder in the app shows them.
 */
import { parseArgs } from 'node:util';
import { closestNames } from '../mask/closest-names';
import { BUILT_IN_PRESETS } from '../mask/mask-presets';
import { maskTree, maskTreeNode, walkMaskTree } from '../mask/mask-tree';
import { loadSavedPresetsSync, savedPresetsPath } from '../host/saved-presets';
import { defaultStateDir } from '../host/state-dir';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { UsageError } from './usage-error';
import { printError } from './terminal-text';

const usage = `usage: nodescope mask tree [PATH]
       nodescope mask presets

tree      every pod field under PATH (all of them without), one a line: its mask path and its type
          as kubectl explain writes it; [] marks a list (a path through it applies to every
          element), map[...] a map (selected whole: metadata.labels, never metadata.labels.app)
presets   the built-in presets and the ones saved in the app, with their paths; use one with
          --mask @NAME, or extend it with --mask @NAME,more.paths`;

function treeLines(path: string | undefined): string {
  let nodes = maskTree();
  if (path) {
    const node = maskTreeNode(path);
    if (!node) {
      const all = [...walkMaskTree(maskTree())].map((n) => n.path);
      const close = closestNames(path, all);
      throw new UsageError(`no pod field has the path "${path}"${close.length ? `; did you mean "${close[0]}"?` : ''} (see nodescope mask tree)`);
    }
    if (node.children.length === 0) return `${node.path}  ${node.type}\n`;
    nodes = node.children;
  }
  const width = Math.max(...[...walkMaskTree(nodes)].map((n) => n.path.length));
  let out = '';
  for (const node of walkMaskTree(nodes)) out += `${node.path.padEnd(width)}  ${node.type}\n`;
  return out;
}

function presetLines(): string {
  const stateDir = defaultStateDir();
  const saved = loadSavedPresetsSync(stateDir);
  for (const problem of saved.problems) printError(`nodescope: left out a saved preset: ${problem}`);
  const lines = [...BUILT_IN_PRESETS, ...saved.presets].map((p) => `@${p.name}\t${p.builtIn ? 'built-in' : 'saved'}\t${p.paths.join(',')}`);
  if (saved.presets.length === 0) lines.push(`(no saved presets in ${savedPresetsPath(stateDir)}; save one in the app's mask builder)`);
  return `${lines.join('\n')}\n`;
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
    const [what, ...rest] = positionals;
    if (values.help || what === undefined) {
      console.log(usage);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    if (what === 'tree' && rest.length <= 1) process.stdout.write(treeLines(rest[0]));
    else if (what === 'presets' && rest.length === 0) process.stdout.write(presetLines());
    else throw new UsageError(what === 'tree' || what === 'presets' ? `too many arguments for mask ${what}` : `unknown mask command '${what}': use tree or presets`);
    return EXIT.ok;
  } catch (err) {
    return reportFailure('mask', err instanceof TypeError ? new UsageError(err.message) : err, true);
  }
}
