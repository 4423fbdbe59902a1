/**
 * Writes app/schema/pod-proto.generated.ts from proto/: the pod's messages as a TypeScript module, so
 * the schema (and masks, printers and diffs with it) loads in the renderer without node:fs.
 * Run after changing proto/: node bin/run-ts.js scripts/gen-pod-proto-module.ts
 * app/schema/pod-proto-module.test.ts fails while the committed module is out of date.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../app/fs/atomic-file';
import { podProtoModuleText } from '../app/schema/proto-files';

const target = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'app', 'schema', 'pod-proto.generated.ts');
await writeFileAtomic(target, podProtoModuleText());
console.log(`wrote ${target}`);
