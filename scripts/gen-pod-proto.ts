/**
 * Writes app/schema/pod-proto.generated.ts: the pod's proto files (POD_PROTO_FILES) as a protobufjs
 * descriptor, so the pod schema loads without reading files (in the renderer too). Run after changing
 * proto/: node bin/run-ts.js scripts/gen-pod-proto.ts (app/schema/pod-schema.test.ts checks it is current).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { podProtoDescriptorText } from '../app/proto/pod-proto-descriptor';

const target = fileURLToPath(new URL('../app/schema/pod-proto.generated.ts', import.meta.url));
writeFileSync(target, podProtoDescriptorText());
console.log(`wrote ${target}`);
