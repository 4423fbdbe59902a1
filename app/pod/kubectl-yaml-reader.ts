/**
 * kubectl's YAML -> the JSON values it holds (and pod trees): the inverse of kubectl-yaml.ts, for YAML
 * snapshot files (`kubectl get pods -o yaml`, one pod's YAML, Nodescope's YAML exports, watch streams).
 *
 * The `yaml` library parses (YAML 1.1, every scalar kept as its text by the failsafe schema); unquoted
 * scalars are then typed as go-yaml types them (YAML 1.1 booleans, nulls, integers in Go's bases, floats),
 * so a value reads back exactly as kubectl wrote it, integers beyond 2^53 included (as bigint), and U+2028/U+2029
 * as go-yaml reads them (yaml11-line-breaks.ts).
 * Browser-safe.
 */
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, parseDocument, Scalar, type Node } from 'yaml';
import { isBase60Float, resolvesAsString, yamlNumberText } from './go-yaml-rules';
import type { PodObject, PodTree, PodValue } from './pod-tree';
import { separatorScalarValue, withSeparatorsAsNewlines } from './yaml11-line-breaks';

export class KubectlYamlError extends Error {
  constructor(
    message: string,
    /** The 1-based line of the value it is about, when it is about one. */
    readonly line?: number,
  ) {
    super(message);
  }
}

const TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NULL = new Set(['', '~', 'null', 'Null', 'NULL']);

/** An unquoted scalar as go-yaml reads it. */
function plainValue(s: string): PodValue {
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  if (NULL.has(s)) return null;
  if (resolvesAsString(s) || isBase60Float(s)) return s;
  if (/^[-+]?(0|[1-9][0-9]*)$/.test(s) || /^[-+]?0[xob]?[0-9a-fA-F_]+$/.test(s)) {
    const text = yamlNumberText(s.replace(/_/g, '').replace(/^\+/, ''));
    if (/^-?[0-9]+$/.test(text)) {
      const big = BigInt(text);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
  }
  const f = Number(s.replace(/_/g, ''));
  // Timestamps and special floats have no JSON form; kubectl never writes them unquoted.
  if (!Number.isFinite(f)) throw new KubectlYamlError(`the value ${JSON.stringify(s)} has no JSON form (not YAML that kubectl writes)`);
  return f;
}

/** One line of double-quoted YAML, unescaped. */
function unescapeDoubleQuoted(text: string): string {
  return String(parseDocument(text, { version: '1.1', schema: 'failsafe' }).contents);
}

/** A scalar's text as go-yaml reads it from `source` (U+2028/U+2029 kept where they were, see yaml11-line-breaks.ts). */
function scalarText(node: Scalar, source: string, where: string): string {
  const text = separatorScalarValue(node, source, unescapeDoubleQuoted);
  if (text === undefined) throw new KubectlYamlError(`${where}: an unquoted or folded (>) value holding U+2028 or U+2029 (not YAML that kubectl writes)`);
  return text;
}

/** The 1-based line of `offset` in `source`. */
function lineOf(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * kubectl writes no tags (`!!binary`, `!custom`) and no aliases: what a value means would then hang on them,
 * and reading it as plain text would make a pod kubectl never printed, so such a value is refused.
 */
function refuseTagsAndAliases(node: Node, where: string, source: string): void {
  // The line is counted only for a value refused: counting it for every node made reading quadratic.
  const line = () => (node.range ? lineOf(source, node.range[0]) : undefined);
  if (isAlias(node)) throw new KubectlYamlError(`${where}: an alias (*${node.source}), which kubectl never writes`, line());
  if (node.tag !== undefined) {
    const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
    throw new KubectlYamlError(`${where}: the tag ${tag}, which kubectl never writes (Nodescope does not guess what a tagged value means)`, line());
  }
}

function toValue(node: Node | null | undefined, where: string, source: string): PodValue {
  if (node === null || node === undefined) return null;
  refuseTagsAndAliases(node, where, source);
  if (isScalar(node)) {
    const text = scalarText(node, source, where);
    return node.type === Scalar.PLAIN ? plainValue(text) : text;
  }
  if (isSeq(node)) return node.items.map((item, i) => toValue(item as Node, `${where}[${i}]`, source));
  if (isMap(node)) {
    const entries: [string, PodValue][] = [];
    for (const pair of node.items) {
      const key = pair.key as Node;
      if (!isScalar(key)) throw new KubectlYamlError(`${where}: a key that is not a string (not YAML that kubectl writes)`);
      refuseTagsAndAliases(key, where, source);
      const k = scalarText(key, source, where);
      entries.push([k, toValue(pair.value as Node, `${where}.${k}`, source)]);
    }
    // fromEntries makes own properties, even for a key named __proto__.
    return Object.fromEntries(entries) as PodObject;
  }
  throw new KubectlYamlError(`${where}: not YAML that kubectl writes`);
}

const STACK_OVERFLOW = 'Maximum call stack size exceeded';

/**
 * Every document of kubectl YAML text (a single object, a List, or a `---` separated stream) as the JSON
 * value it holds. Throws KubectlYamlError naming the line of a syntax error.
 */
export function readKubectlYaml(text: string): PodValue[] {
  const values: PodValue[] = [];
  try {
    const docs = parseAllDocuments(withSeparatorsAsNewlines(text), { version: '1.1', schema: 'failsafe', merge: false, uniqueKeys: false, prettyErrors: true });
    if (!Array.isArray(docs)) return [];
    docs.forEach((doc, i) => {
      const error = doc.errors[0];
      if (error?.message.startsWith(STACK_OVERFLOW)) throw new RangeError(STACK_OVERFLOW);
      if (error) throw new KubectlYamlError(`not valid YAML: ${error.message.split('\n')[0]}`);
      if (doc.contents !== null) values.push(toValue(doc.contents as Node, `document ${i + 1}`, text));
    });
  } catch (err) {
    // The parser recurses per level (and reports running out of stack as an error, or throws it): managedFields
    // deeper than about 800 levels are more than it can read.
    if (err instanceof RangeError && err.message.startsWith(STACK_OVERFLOW)) {
      throw new KubectlYamlError('the YAML nests deeper than this reader can follow (about 800 levels: managedFields that deep?); export the pods without --show-managed-fields to leave managedFields out');
    }
    throw err;
  }
  return values;
}

const isObject = (v: PodValue | undefined): v is PodObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The pods in kubectl YAML: a Pod document, a List of pods (`kubectl get pods -o yaml`, Nodescope's YAML
 * export), a stream of them, or watch events (`type:` + `object:`). Each pod comes as a pod tree (no
 * apiVersion/kind, see pod-tree.ts). Anything else is an error that says what was found.
 */
export function podTreesFromKubectlYaml(text: string): PodTree[] {
  const pods: PodTree[] = [];
  const take = (v: PodValue, where: string): void => {
    if (!isObject(v)) throw new KubectlYamlError(`${where} is not a kubectl object; expected a Pod or a List of pods`);
    if (v.kind === 'List' || (v.kind === undefined && Array.isArray(v.items))) {
      const items = v.items;
      if (!Array.isArray(items)) throw new KubectlYamlError(`${where} is a List without items`);
      items.forEach((item, i) => take(item, `${where} items[${i}]`));
      return;
    }
    if (v.kind === undefined && typeof v.type === 'string' && isObject(v.object)) return take(v.object, `${where} (${v.type} event)`);
    if (v.kind !== 'Pod') throw new KubectlYamlError(`${where} is a ${typeof v.kind === 'string' ? v.kind : 'object without a kind'}, not a Pod`);
    const { apiVersion: _apiVersion, kind: _kind, ...tree } = v;
    pods.push(tree);
  };
  readKubectlYaml(text).forEach((doc, i) => take(doc, `document ${i + 1}`));
  return pods;
}
