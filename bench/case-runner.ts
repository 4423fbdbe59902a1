/** Child side of isolated.ts: runs one exported case of a bench module and prints its result as JSON. */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [module, caseName] = process.argv.slice(2);
const mod = (await import(pathToFileURL(resolve(import.meta.dirname ?? '.', module!)).href)) as { cases: Record<string, () => Promise<unknown>> };
const run = mod.cases[caseName!];
if (!run) throw new Error(`no case ${caseName} in ${module}`);
console.log(JSON.stringify(await run()));
