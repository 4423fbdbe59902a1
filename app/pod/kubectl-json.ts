/**
 * Pods -> the exact text `kubectl get pod -o json` prints (docs/pod-json.md): Go's JSON rules decided from
 * the Go field kinds, keys sorted bytewise, 4-space indent, Go's HTML-safe escaping, trailing newline.
 *
 * Two printers apply the same rules (go-json-rules.ts): this file's, from a pod tree (decoded, masked or
 * generated), generated per message from the schema; and kubectl-json-bytes.ts's, straight from pod bytes
 * without building a tree (export, decode, detail), which walks per-message plans made from the schema.
 */
import { compileFunctions, js } from '../schema/compile-functions';
import { compareGoKeys, podSchema, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { decodePod, PodDecodeError } from './decode';
import { DecodeContext } from './decode-context';
import { MANAGED_FIELDS, Rule, ruleOf } from './go-json-rules';
import type { FieldMask, Selection } from '../mask/field-mask';
import { JsonBytesWriter } from './json-bytes-writer';
import { createBytesPrinter, type PodBytesPrinter } from './kubectl-json-bytes';
import type { PodObject, PodTree, PodValue, UnknownField } from './pod-tree';
import { WireFormatError, WireReader } from './wire-reader';
import { runAtOnce } from '../util/time-slices';

export interface KubectlJsonOptions {
  /** kubectl's --show-managed-fields: keep metadata.managedFields of each pod. */
  showManagedFields?: boolean;
  /**
   * The field mask the pod went through: only the members it selects are printed (kubectl's JSON of
   * the whole pod, cut down to the mask), so nothing it left out is printed as a Go zero value.
   */
  mask?: FieldMask;
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** Go's encoding/json string form (HTML-safe). JSON.stringify already matches Go for quotes, backslash and controls. */
export function quote(s: string): string {
  // A plain loop beats a regex test on the short strings pods are made of.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      return JSON.stringify(s).replace(HTML_UNSAFE, (ch) => HTML_ESCAPES[ch]!);
    }
  }
  return `"${s}"`;
}

/** The layout: kubectl's 4-space MarshalIndent, or Go's compact json.Marshal (NDJSON). */
interface Layout {
  IND: string[];
  KS: string;
  pretty: boolean;
}
const pretty: Layout = { IND: Array.from({ length: 128 }, (_, d) => `\n${'    '.repeat(d)}`), KS: ': ', pretty: true };
const compact: Layout = { IND: Array.from({ length: 128 }, () => ''), KS: ':', pretty: false };

/** Indentation before a line at depth `d` (beyond the cached depths only managedFields content goes). */
const indentOf = (d: number, L: Layout): string => L.IND[d] ?? (L.pretty ? `\n${'    '.repeat(d)}` : '');

/** An open array or object of anyText: its entries and how many are written. */
interface OpenValue {
  values: (PodValue | undefined)[];
  keys: string[] | null;
  next: number;
  d: number;
}

/**
 * Plain JSON values: scalars and FieldsV1 content (managedFields). Iterative, because FieldsV1 may nest as deep
 * as Go's JSON allows (decode-context.ts), far deeper than the call stack.
 */
function anyText(value: PodValue | undefined, d: number, L: Layout): string {
  const open: OpenValue[] = [];
  let o = '';
  for (;;) {
    if (value !== null && typeof value === 'object') {
      const keys = Array.isArray(value) ? null : Object.keys(value).sort(compareGoKeys);
      const values = keys === null ? (value as PodValue[]) : keys.map((k) => (value as PodObject)[k]);
      if (values.length === 0) o += keys === null ? '[]' : '{}';
      else {
        o += keys === null ? '[' : '{';
        open.push({ values, keys, next: 0, d });
      }
    } else o += typeof value === 'string' ? quote(value) : value === null || value === undefined ? 'null' : typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
    // Move to the next entry, closing every value that has none left.
    let top = open[open.length - 1];
    while (top !== undefined && top.next === top.values.length) {
      o += `${indentOf(top.d, L)}${top.keys === null ? ']' : '}'}`;
      open.pop();
      top = open[open.length - 1];
    }
    if (top === undefined) return o;
    const i = top.next++;
    o += `${i === 0 ? '' : ','}${indentOf(top.d + 1, L)}${top.keys === null ? '' : `${quote(top.keys[i]!)}${L.KS}`}`;
    value = top.values[i];
    d = top.d + 1;
  }
}

/** A plain JSON value as Go's json.Marshal writes it (keys sorted, HTML-safe), at any depth. */
export function goJsonCompact(value: PodValue): string {
  return anyText(value, 0, compact);
}

/** Any JSON value (a pod read back from YAML, a List) as kubectl's `-o json` prints it. */
export function valueToKubectlJson(value: PodValue): string {
  return `${anyText(value, 0, pretty)}\n`;
}

/** A map's text from [key, value text] entries, keys in Go's order. */
function mapText(entries: [string, string][], d: number, L: Layout): string {
  entries.sort((a, b) => compareGoKeys(a[0], b[0]));
  let o = '';
  for (const [k, v] of entries) o += `${o === '' ? '' : ','}${L.IND[d + 1]}${quote(k)}${L.KS}${v}`;
  return `{${o}${L.IND[d]}}`;
}

const scalarText = (v: PodValue): string => (typeof v === 'string' ? quote(v) : typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));
const timeText = (v: string | null): string => (v === null ? 'null' : quote(v));

// ---- generation ----

const name = (prefix: string, m: MessageSchema): string => `${prefix}_${m.fullName.replace(/\./g, '_')}`;

interface Slot {
  v: string;
  member: MessageSchema['members'][number];
}

/** Text of one element taken from a tree value `x`, at depth `d`; `sel` is the mask's selection inside it. */
function treeElement(f: FieldSchema, x: string, d: string, sel = 'undefined'): string {
  if (f.scalar) return `scalarText(${x})`;
  const m = f.message!;
  switch (m.special) {
    case 'time':
      return `timeText(${x})`;
    case 'quantity':
    case 'intOrString':
      return `scalarText(${x})`;
    case 'fieldsV1':
      return `anyText(${x}, ${d}, L)`;
    default:
      return `${name('t', m)}(${x}, ${d}, false, ${sel})`;
  }
}

/**
 * Fills slots from the tree object `src`. `sel` (a mask's Selection, undefined for all) decides which
 * members are printed at all, and its entry for a member is the selection passed down into it.
 */
function treeFill(m: MessageSchema, slots: Map<FieldSchema, Slot>, isPod: boolean): string {
  return m.members
    .map(({ name: key, field: f }) => {
      const s = slots.get(f)!.v;
      const x = `src[${js(key)}]`;
      const inner = `(sel === undefined ? undefined : sel.byName.get(${js(key)}))`;
      let fill: string;
      if (f.map) fill = `{ const x = ${x}; if (x) { const es = []; for (const k in x) es.push([k, ${treeElement(f, 'x[k]', 'd + 2')}]); if (es.length) ${s} = es; } }`;
      else if (f.repeated) {
        fill = `{ const x = ${x}, is = ${inner}; if (x) for (let i = 0; i < x.length; i++) ${s} = (${s} === undefined ? '' : ${s} + ',') + L.IND[d + 2] + ${treeElement(f, 'x[i]', 'd + 2', 'is')}; }`;
      } else if (isPod && key === 'metadata') fill = `{ const x = ${x}; ${s} = ${name('t', f.message!)}(x === undefined ? {} : x, d + 1, h, ${inner}); }`;
      // An absent non-pointer struct prints as its zero value (Go writes every field that has no omitempty).
      else if (ruleOf(f).rule === Rule.Struct) fill = `{ const x = ${x}; ${s} = ${name('t', f.message!)}(x === undefined ? {} : x, d + 1, false, ${inner}); }`;
      else fill = `{ const x = ${x}; if (x !== undefined) ${s} = ${treeElement(f, 'x', 'd + 1', inner)}; }`;
      return `if (sel === undefined || sel.byName.has(${js(key)})) ${fill}`;
    })
    .join('\n  ');
}

/** Go's rules (go-json-rules.ts) applied to member texts; undefined means not present, or empty. */
function emission(m: MessageSchema, slots: Map<FieldSchema, Slot>, isPod: boolean): string {
  const lines: string[] = [isPod ? `let o = L.IND[d + 1] + '"apiVersion"' + L.KS + '"v1",' + L.IND[d + 1] + '"kind"' + L.KS + '"Pod"';` : `let o = '';`];
  for (const { name: key, field: f } of m.members) {
    const s = slots.get(f)!.v;
    const emit = (text: string) => `o += (o === '' ? '' : ',') + L.IND[d + 1] + ${js(quote(key))} + L.KS + ${text};`;
    const { rule, omit, zeroText } = ruleOf(f);
    const zero = js(zeroText);
    let line: string;
    switch (rule) {
      case Rule.List:
      case Rule.Map: {
        const full = rule === Rule.Map ? `mapText(${s}, d + 1, L)` : `'[' + ${s} + L.IND[d + 1] + ']'`;
        line = `if (${s} !== undefined) { ${emit(full)} }${omit ? '' : ` else { ${emit("'null'")} }`}`;
        break;
      }
      case Rule.Pointer:
        // Without omitempty Go writes a nil pointer as null.
        line = omit ? `if (${s} !== undefined) { ${emit(s)} }` : emit(`(${s} ?? 'null')`);
        break;
      case Rule.Time:
        line = omit ? `if (${s} !== undefined && ${s} !== 'null') { ${emit(s)} }` : emit(`(${s} ?? 'null')`);
        break;
      case Rule.Struct:
        line = emit(`(${s} ?? '{}')`);
        break;
      case Rule.SpecialValue:
        line = emit(`(${s} ?? ${zero})`);
        break;
      case Rule.Scalar:
        line = omit ? `if (${s} !== undefined && ${s} !== ${zero}) { ${emit(s)} }` : emit(`(${s} ?? ${zero})`);
        break;
    }
    if (key === MANAGED_FIELDS) line = `if (!h) { ${line} }`;
    lines.push(`if (sel === undefined || sel.byName.has(${js(key)})) { ${line} }`);
  }
  lines.push(`return o === '' ? '{}' : '{' + o + L.IND[d] + '}';`);
  return lines.join('\n  ');
}

function generatePrinter(m: MessageSchema, isPod: boolean): string {
  const slots = new Map<FieldSchema, Slot>(m.members.map((member, i) => [member.field, { v: `s${i}`, member }]));
  return `function ${name('t', m)}(src, d, h, sel) {
  let ${m.members.map((_, i) => `s${i}`).join(', ')};
  ${treeFill(m, slots, isPod)}
  ${emission(m, slots, isPod)}
}`;
}

type TreePrinter = (o: PodTree, d: number, hide: boolean, sel: Selection | undefined) => string;

let treePrinters: { pretty: TreePrinter; compact: TreePrinter } | undefined;

function compileTreePrinters(): { pretty: TreePrinter; compact: TreePrinter } {
  const schema = podSchema();
  const messages = [...schema.messages.values()].filter((m) => !m.special);
  const source = [...messages.map((m) => generatePrinter(m, m === schema.pod)), `return ${name('t', schema.pod)};`].join('\n\n');
  const compile = (L: Layout) => compileFunctions<TreePrinter>(source, { L, quote, anyText, mapText, scalarText, timeText });
  return { pretty: compile(pretty), compact: compile(compact) };
}

function get(layout: 'pretty' | 'compact'): TreePrinter {
  treePrinters ??= compileTreePrinters();
  return treePrinters[layout];
}

/** One pod as `kubectl get pod NAME -o json` prints it. */
export function podToKubectlJson(pod: PodTree, options: KubectlJsonOptions = {}): string {
  return `${get('pretty')(pod, 0, options.showManagedFields !== true, options.mask?.selection)}\n`;
}

/** One pod on one line, for NDJSON: the object kubectl prints, in Go's compact form. */
export function podToNdjsonLine(pod: PodTree, options: KubectlJsonOptions = {}): string {
  return get('compact')(pod, 0, options.showManagedFields !== true, options.mask?.selection);
}

/** Several pods as kubectl prints them: a `List`. */
export function podsToKubectlListJson(pods: Iterable<PodTree>, options: KubectlJsonOptions = {}): string {
  let text = '';
  streamPodsAsKubectl(pods, (part) => (text += part), options);
  return text;
}

/**
 * Streams pod trees (masked, for instance) as a kubectl `List` or NDJSON lines, one piece of text per pod,
 * so an export of thousands of pods is written as it is printed.
 */
export function streamPodsAsKubectl(pods: Iterable<PodTree>, sink: (text: string) => void, options: StreamOptions = {}): void {
  runAtOnce(podsAsKubectlSteps(pods, sink, options));
}

/**
 * streamPodsAsKubectl in steps: yields how many pods it has printed after each one, so an export in time
 * slices (app/util/time-slices.ts) reports its progress and stops between two pods when cancelled.
 */
export function* podsAsKubectlSteps(pods: Iterable<PodTree>, sink: (text: string) => void, options: StreamOptions = {}): Generator<number, void> {
  const hide = options.showManagedFields !== true;
  const sel = options.mask?.selection;
  let written = 0;
  if (options.ndjson) {
    const p = get('compact');
    for (const pod of pods) {
      sink(`${p(pod, 0, hide, sel)}\n`);
      yield ++written;
    }
    return;
  }
  const p = get('pretty');
  sink(LIST_HEAD);
  for (const pod of pods) {
    sink(`${written === 0 ? '\n        ' : ',\n        '}${p(pod, 2, hide, sel)}`);
    yield ++written;
  }
  sink(written === 0 ? `]${LIST_TAIL}` : `\n    ]${LIST_TAIL}`);
}

export interface PrintedPod {
  json: string;
  unknownFields: UnknownField[];
}

/** FieldsV1 content as kubectl prints it at a depth: the bytes printer's AnyText. */
export const anyTextFor = (value: unknown, d: number, isPretty: boolean): string => anyText(value as PodValue, d, isPretty ? pretty : compact);
/** The bytes printers, built on first use, one per layout for every writer (createBytesPrinter). */
const bytesPrinters: Partial<Record<'pretty' | 'compact', PodBytesPrinter>> = {};
const bytesPrinter = (layout: 'pretty' | 'compact') => (bytesPrinters[layout] ??= createBytesPrinter(layout === 'pretty', anyTextFor));
/** The writers of the synchronous printers, which finish with them before they return. */
const writers = { pretty: new JsonBytesWriter(true), compact: new JsonBytesWriter(false) };
const textDecoder = new TextDecoder();

/** Prints one pod's bytes into the layout's writer at its current end; returns its unknown fields. */
function printBytes(w: JsonBytesWriter, bytes: Uint8Array, depth: number, layout: 'pretty' | 'compact', options: KubectlJsonOptions, label: string): UnknownField[] {
  const printer = bytesPrinter(layout);
  const reader = new WireReader(bytes);
  const context = new DecodeContext(reader);
  const mark = w.op;
  try {
    printer(w, reader, bytes.length, depth, options.showManagedFields !== true, context);
  } catch (err) {
    w.op = mark;
    if (!(err instanceof WireFormatError)) throw err;
    // The fast path keeps no field path: the tree decoder names the pod, the path and the offset. Should it
    // accept what the fast path refused, the pod is printed from its tree rather than lost.
    const decoded = decodePod(bytes, label);
    w.text(get(layout)(decoded.pod, depth, options.showManagedFields !== true, undefined));
    return decoded.unknownFields;
  }
  // Unknown fields are rare (a newer kubelet); the tree decoder reports them with their paths.
  return context.unknownFields.length ? decodePod(bytes, label).unknownFields : [];
}

/** Pod bytes straight to kubectl's JSON, without building a tree: the fast path for export and display. */
export function podBytesToKubectlJson(bytes: Uint8Array, options: KubectlJsonOptions = {}, label = 'pod'): PrintedPod {
  const w = writers.pretty;
  w.reset();
  const unknownFields = printBytes(w, bytes, 0, 'pretty', options, label);
  w.byte(10);
  return { json: textDecoder.decode(w.view()), unknownFields };
}

export function podBytesToNdjsonLine(bytes: Uint8Array, options: KubectlJsonOptions = {}, label = 'pod'): PrintedPod {
  const w = writers.compact;
  w.reset();
  const unknownFields = printBytes(w, bytes, 0, 'compact', options, label);
  return { json: textDecoder.decode(w.view()), unknownFields };
}

export interface PrintedList {
  /** The kubectl List (or NDJSON lines) as UTF-8, ready to be written to a file or stdout. */
  bytes: Uint8Array;
  unknownFields: { index: number; fields: UnknownField[] }[];
  /** Pods that could not be decoded; they are left out, the others are all there. */
  errors: PodDecodeError[];
}

const LIST_HEAD = '{\n    "apiVersion": "v1",\n    "items": [';
const LIST_TAIL = ',\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n';

export interface StreamOptions extends KubectlJsonOptions {
  /** One compact pod per line instead of a kubectl List. */
  ndjson?: boolean;
  /** Names pod `i` in errors until its own name is decoded. */
  labelOf?: (i: number) => string;
  /**
   * Prints a run of a List's pods to be added to the List elsewhere (addPrinted): no head or tail, and a
   * comma before every pod, as every pod but a List's first has.
   */
  listPart?: boolean;
}

/** How much output to gather before handing it to the sink: big enough for few writes, small enough for memory. */
const CHUNK = 1 << 20;

/**
 * A kubectl `List` (or NDJSON lines) printed pod by pod as their bytes come (`add`), handed to `sink` in
 * chunks of about 1 MiB, so an export of any size never holds its whole text. A pod that cannot be decoded
 * is reported and left out. Chunks are only valid during the sink call (copy them to keep them). Each
 * printer has its own writer, so several may be under way at once.
 */
export class PodBytesListPrinter {
  readonly unknownFields: PrintedList['unknownFields'] = [];
  readonly errors: PodDecodeError[] = [];
  private i = 0;
  private written = 0;
  private readonly layout: 'pretty' | 'compact';
  private readonly labelOf: (i: number) => string;

  /** `chunkBytes`: output gathered before it goes to the sink. */
  constructor(
    private readonly sink: (chunk: Uint8Array) => void,
    private readonly options: StreamOptions = {},
    private readonly w: JsonBytesWriter = new JsonBytesWriter(!options.ndjson),
    private readonly chunkBytes = CHUNK,
  ) {
    this.layout = options.ndjson ? 'compact' : 'pretty';
    this.labelOf = options.labelOf ?? ((i: number) => `pods[${i}]`);
    w.reset();
    if (!options.ndjson && !options.listPart) w.text(LIST_HEAD);
  }

  /** The number of pods printed so far. */
  get count(): number {
    return this.written;
  }

  /** Prints one pod; returns the fields it has that the schema does not know (left out of the JSON). */
  add(bytes: Uint8Array): UnknownField[] {
    const { w } = this;
    const { ndjson } = this.options;
    const mark = w.op;
    let fields: UnknownField[] = [];
    try {
      if (!ndjson) w.text(this.written === 0 && !this.options.listPart ? '\n        ' : ',\n        ');
      fields = printBytes(w, bytes, ndjson ? 0 : 2, this.layout, this.options, this.labelOf(this.i));
      if (ndjson) w.byte(10);
      this.written++;
      if (fields.length) this.unknownFields.push({ index: this.i, fields });
    } catch (err) {
      w.op = mark;
      if (err instanceof PodDecodeError) this.errors.push(err);
      else throw err;
    }
    this.i++;
    if (w.op >= this.chunkBytes) {
      this.sink(w.view());
      w.reset();
    }
    return fields;
  }

  /**
   * Adds pods printed elsewhere, in order (a printer with `listPart` and the same layout): `part` holds the
   * `printed` of `pods` pods that decoded; `errors` are those that did not.
   */
  addPrinted(part: Uint8Array, pods: number, printed: number, errors: readonly PodDecodeError[]): void {
    const { w } = this;
    if (printed > 0) {
      if (w.op > 0) this.sink(w.view());
      w.reset();
      // The part's first pod may be the List's first, which has no comma before it.
      this.sink(this.written === 0 && !this.options.ndjson ? part.subarray(1) : part);
      this.written += printed;
    }
    this.errors.push(...errors);
    this.i += pods;
  }

  /** Closes the List and hands over the rest. */
  end(): Omit<PrintedList, 'bytes'> {
    const { w } = this;
    if (!this.options.ndjson && !this.options.listPart) w.text(this.written === 0 ? `]${LIST_TAIL}` : `\n    ]${LIST_TAIL}`);
    if (w.op > 0) this.sink(w.view());
    w.reset();
    return { unknownFields: this.unknownFields, errors: this.errors };
  }
}

/**
 * A run of a List's pods (StreamOptions.listPart) printed straight into `into`, in one piece: `part` is in
 * `into`'s buffer, or in a larger one when it did not fit. For parts printed on a worker and handed on as
 * they are: gathering them from a printer's chunks would copy ~5 times the pods' bytes once more.
 */
export function printListPart(list: Iterable<Uint8Array>, into: Uint8Array<ArrayBuffer>, options: StreamOptions): Omit<PrintedList, 'bytes'> & { part: Uint8Array } {
  const w = writers[options.ndjson ? 'compact' : 'pretty'];
  const own = w.out;
  w.out = into;
  try {
    let part: Uint8Array = into.subarray(0, 0);
    // The sink is called once, at the end, with the whole part (a view of the writer's buffer).
    const printer = new PodBytesListPrinter((all) => (part = all), { ...options, listPart: true }, w, Infinity);
    for (const bytes of list) printer.add(bytes);
    return { ...printer.end(), part };
  } finally {
    // The part's buffer is the caller's now (it may be moved to another thread): the writer keeps its own.
    w.out = own;
    w.reset();
  }
}

/** Several pods' bytes as a kubectl `List` (or NDJSON lines), in chunks to `sink`; see PodBytesListPrinter. */
export function streamPodBytesAsKubectl(list: Iterable<Uint8Array>, sink: (chunk: Uint8Array) => void, options: StreamOptions = {}): Omit<PrintedList, 'bytes'> {
  const printer = new PodBytesListPrinter(sink, options, writers[options.ndjson ? 'compact' : 'pretty']);
  for (const bytes of list) printer.add(bytes);
  return printer.end();
}

/** Several pods' bytes as one kubectl `List` (or NDJSON lines) in memory; see streamPodBytesAsKubectl. */
export function podBytesListToKubectl(list: Iterable<Uint8Array>, options: StreamOptions = {}): PrintedList {
  const chunks: Uint8Array[] = [];
  const result = streamPodBytesAsKubectl(list, (chunk) => chunks.push(chunk.slice()), options);
  return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), ...result };
}
