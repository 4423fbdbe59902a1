/**
 * Generates the Kubernetes pod schema from the facts in ../shared/k8s/pod-closure-fields.json:
 *  - proto/k8s.io/.../generated.proto (proto2, upstream package/message/field names and numbers), loaded
 *    at run time by protobufjs;
 *  - app/schema/go-json-tags.generated.ts: the Go JSON facts (kind of Go field, omitempty, omitzero,
 *    inline) the kubectl printer and the encoder need, which a .proto cannot carry.
 * Run: node bin/run-ts.js scripts/gen-k8s-schema.ts [path/to/pod-closure-fields.json]
 * The outputs are committed; the facts file is not part of the project.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface FactField {
  go: string;
  type: string;
  json: string;
  embedded: boolean;
  inline: boolean;
  omitempty: boolean;
  omitzero: boolean;
  pbNum?: number;
  pbName?: string;
  pbWire?: string;
  pbLabel?: string;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const factsPath = process.argv[2] ?? resolve(root, '..', 'shared', 'k8s', 'pod-closure-fields.json');
const facts = JSON.parse(readFileSync(factsPath, 'utf8')) as Record<string, FactField[]>;

const CORE = 'k8s.io.api.core.v1';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const RESOURCE = 'k8s.io.apimachinery.pkg.api.resource';
const INTSTR = 'k8s.io.apimachinery.pkg.util.intstr';

/** Messages with a hand-known shape (described in docs/pod-json.md rather than in the facts). */
const SPECIAL: Record<string, { pkg: string; body: string[] }> = {
  [`${META}.Time`]: { pkg: META, body: ['optional int64 seconds = 1;', 'optional int32 nanos = 2;'] },
  [`${META}.FieldsV1`]: { pkg: META, body: ['optional bytes Raw = 1;'] },
  [`${RESOURCE}.Quantity`]: { pkg: RESOURCE, body: ['optional string string = 1;'] },
  [`${INTSTR}.IntOrString`]: {
    pkg: INTSTR,
    body: ['optional int64 type = 1;', 'optional int32 intVal = 2;', 'optional string strVal = 3;'],
  },
};

function factKeyToProto(key: string): string {
  const [group, , name] = key.split('.');
  return `${group === 'core' ? CORE : META}.${name}`;
}

/** Resolves a Go element type (no `*`, no `[]`) to a proto type name, or a map. */
function protoTypeOf(goType: string, owner: string): string {
  const bare = goType.replace(/^metav1\./, '');
  if (goType === 'ResourceList' || goType === 'map[ResourceName]resource.Quantity') {
    return `map<string, ${RESOURCE}.Quantity>`;
  }
  if (goType === 'map[string]string') return 'map<string, string>';
  if (bare === 'Time') return `${META}.Time`;
  if (bare === 'FieldsV1') return `${META}.FieldsV1`;
  if (goType === 'resource.Quantity') return `${RESOURCE}.Quantity`;
  if (goType === 'intstr.IntOrString') return `${INTSTR}.IntOrString`;
  if (goType === 'bool' || goType === 'int32' || goType === 'int64' || goType === 'string') return goType;
  const ownerGroup = owner.split('.')[0];
  const candidates = goType.startsWith('metav1.') ? [`meta.v1.${bare}`] : [`${ownerGroup}.v1.${bare}`, `core.v1.${bare}`, `meta.v1.${bare}`];
  for (const c of candidates) if (facts[c]) return factKeyToProto(c);
  // Every other named Go type in the closure (PodPhase, ResourceName, types.UID, ...) is a string.
  return 'string';
}

/** The facts leave some embedded fields unnamed; upstream names them lowerCamel after the Go type. */
function protoNameOf(f: FactField): string {
  return f.pbName || f.go.charAt(0).toLowerCase() + f.go.slice(1);
}

function elementTypeOf(goType: string): string {
  return goType.replace(/^\*/, '').replace(/^\[\]/, '');
}

/** Only messages reachable from Pod through on-the-wire fields belong in the schema (137 of them). */
const reachable = new Set<string>();
(function visit(key: string): void {
  const full = factKeyToProto(key);
  if (reachable.has(full)) return;
  reachable.add(full);
  for (const f of facts[key]!) {
    if (f.pbNum === undefined) continue;
    const pt = protoTypeOf(elementTypeOf(f.type), key);
    const dep = Object.keys(facts).find((k) => factKeyToProto(k) === pt);
    if (dep) visit(dep);
  }
})('core.v1.Pod');

type GoKind = 'value' | 'pointer' | 'list' | 'map';
interface TagOut {
  n: number;
  json: string;
  kind: GoKind;
  omitempty?: true;
  omitzero?: true;
  inline?: true;
}

const WIRE_OF: Record<string, string> = { bool: 'varint', int32: 'varint', int64: 'varint' };
const warnings: string[] = [];
const messagesByPkg = new Map<string, string[]>();
const tags: Record<string, TagOut[]> = {};
const imports = new Map<string, Set<string>>();

function pkgFile(pkg: string): string {
  return `${pkg.replace(/\./g, '/').replace(/^k8s\/io/, 'k8s.io')}/generated.proto`;
}

for (const [key, fields] of Object.entries(facts)) {
  const fullName = factKeyToProto(key);
  const pkg = fullName.slice(0, fullName.lastIndexOf('.'));
  const name = fullName.slice(pkg.length + 1);
  if (!reachable.has(fullName)) continue; // TypeMeta: not on the wire (apiVersion/kind are added when printing)
  const onWire = fields.filter((f) => f.pbNum !== undefined);
  const lines: string[] = [`message ${name} {`];
  const tagList: TagOut[] = [];
  for (const f of [...onWire].sort((a, b) => a.pbNum! - b.pbNum!)) {
    const t = f.type;
    const kind: GoKind = t.startsWith('*') ? 'pointer' : t.startsWith('[]') ? 'list' : t.startsWith('map[') || t === 'ResourceList' ? 'map' : 'value';
    const pt = protoTypeOf(elementTypeOf(t), key);
    const expectWire = WIRE_OF[pt] ?? 'bytes';
    if (f.pbWire && f.pbWire !== expectWire) {
      warnings.push(`${fullName}.${f.pbName}: facts say wire ${f.pbWire} but Go type ${t} is ${expectWire} on the wire; using ${expectWire}`);
    }
    if (pt.includes('.')) {
      const dep = pt.replace(/^map<string, /, '').replace(/>$/, '');
      const depPkg = dep.slice(0, dep.lastIndexOf('.'));
      if (depPkg !== pkg) {
        if (!imports.has(pkg)) imports.set(pkg, new Set());
        imports.get(pkg)!.add(pkgFile(depPkg));
      }
    }
    const label = kind === 'map' ? '' : kind === 'list' ? 'repeated ' : 'optional ';
    const pbName = protoNameOf(f);
    lines.push(`  ${label}${pt} ${pbName} = ${f.pbNum};`);
    const tag: TagOut = { n: f.pbNum!, json: f.json || pbName, kind };
    if (f.omitempty) tag.omitempty = true;
    if (f.omitzero) tag.omitzero = true;
    if (f.inline) tag.inline = true;
    tagList.push(tag);
  }
  lines.push('}');
  if (!messagesByPkg.has(pkg)) messagesByPkg.set(pkg, []);
  messagesByPkg.get(pkg)!.push(lines.join('\n'));
  tags[fullName] = tagList;
}

for (const [fullName, { pkg, body }] of Object.entries(SPECIAL)) {
  const name = fullName.slice(pkg.length + 1);
  if (!messagesByPkg.has(pkg)) messagesByPkg.set(pkg, []);
  messagesByPkg.get(pkg)!.push([`message ${name} {`, ...body.map((l) => `  ${l}`), '}'].join('\n'));
}

function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

const header = [
  '// Generated by scripts/gen-k8s-schema.ts from the Kubernetes v1.36 pod closure facts. Do not edit.',
  '// Package, message and field names and numbers are upstream\'s; every message reachable from',
  '// k8s.io.api.core.v1.Pod is here.',
  'syntax = "proto2";',
  '',
];
let messageCount = 0;
for (const [pkg, messages] of messagesByPkg) {
  // Byte order, not localeCompare: the output must not depend on the machine's locale.
  messages.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  messageCount += messages.length;
  const importLines = [...(imports.get(pkg) ?? [])].sort().map((f) => `import "${f}";`);
  const text = [...header, `package ${pkg};`, '', ...(importLines.length ? [...importLines, ''] : []), messages.join('\n\n'), ''].join('\n');
  writeAtomic(join(root, 'proto', pkgFile(pkg)), text);
}

const tagsTs = [
  '// Generated by scripts/gen-k8s-schema.ts from the Kubernetes v1.36 pod closure facts. Do not edit.',
  '// Go JSON facts per proto message and field number: which kind of Go field it is (value, pointer,',
  '// list, map), its omitempty/omitzero options, and whether an embedded struct is inlined in JSON.',
  "export type GoKind = 'value' | 'pointer' | 'list' | 'map';",
  'export interface GoFieldTag {',
  '  n: number;',
  '  json: string;',
  '  kind: GoKind;',
  '  omitempty?: true;',
  '  omitzero?: true;',
  '  inline?: true;',
  '}',
  'export const goJsonTags: Record<string, GoFieldTag[]> = {',
  ...Object.keys(tags)
    .sort()
    .map((k) => `  '${k}': [\n${tags[k]!.map((t) => `    ${JSON.stringify(t).replace(/"(\w+)":/g, '$1: ').replace(/"/g, "'")},`).join('\n')}\n  ],`),
  '};',
  '',
].join('\n');
writeAtomic(join(root, 'app', 'schema', 'go-json-tags.generated.ts'), tagsTs);

for (const w of warnings) console.warn(`warning: ${w}`);
console.log(`wrote ${messageCount} messages in ${messagesByPkg.size} proto files and their Go JSON tags`);
