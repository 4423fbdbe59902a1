/**
 * Field masks as the documented Pods API defines them (docs/kubelet-pods-api.md §2): one text of
 * comma-separated paths of JSON field names (`metadata.name, spec.containers.image`). Parsing
 * validates every path against the pod schema and compiles the mask into a tree of selections, so
 * the client and the simulated kubelet accept, reject and apply exactly the same masks.
 */
import { podSchema, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { closestNames } from './closest-names';
import { FieldMaskError } from './field-mask-error';
import { describeLeaf, innerMessage, nestedPaths } from './mask-schema';

export { FieldMaskError } from './field-mask-error';
export { applyFieldMask } from './apply-field-mask';
export { fieldMaskCompletions } from './field-mask-completions';

/** The members of one message a mask keeps. */
export interface Selection {
  readonly members: readonly SelectedMember[];
  /** The same members by name, with their inner selection (undefined: kept whole), for printers. */
  readonly byName: ReadonlyMap<string, Selection | undefined>;
}

export interface SelectedMember {
  /** JSON name of the member (inline embeds are flattened, as in the pod tree). */
  readonly name: string;
  /** A list of messages: the inner selection applies to each element. */
  readonly list: boolean;
  /** What to keep inside; undefined keeps the member whole. */
  readonly inner: Selection | undefined;
}

export interface FieldMask {
  /**
   * The canonical paths: in schema (byte) order, duplicates removed, and a path under another
   * selected path dropped (`spec, spec.containers` is `spec`).
   */
  readonly paths: readonly string[];
  /** The paths compiled for applyFieldMask. */
  readonly selection: Selection;
}

interface PathNode {
  field: FieldSchema | undefined;
  /** The path ends here: keep this member whole. */
  whole: boolean;
  children: Map<string, PathNode>;
}

function quoteList(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** Quotes user text for a message, shortening a pasted wall of text so the message stays readable. */
function q(text: string): string {
  return `"${text.length > 100 ? `${text.slice(0, 97)}...` : text}"`;
}

/** Why `segment` is not a member of `schema` (reached by `walked` in `path`), with the likely fix. */
function unknownMemberProblem(schema: MessageSchema, segment: string, walked: string, path: string): string {
  const names = schema.members.map((m) => m.name);
  if (segment.includes('[')) {
    return `list indexes are not supported (${q(segment)}); a path through a list applies to every element, e.g. ${q(path.replace(/\[[^\]]*\]/g, ''))}`;
  }
  if (walked === '' && (segment === 'apiVersion' || segment === 'kind')) {
    return `"${segment}" is not in the pod bytes (printing adds it), so it cannot be selected; valid fields are: ${names.join(', ')}`;
  }
  const unknown = `unknown field ${q(segment)} ${walked ? `in ${walked}` : 'in the pod'}`;
  const close = closestNames(segment, names);
  if (close.length > 0) return `${unknown}; did you mean ${quoteList(close)}?`;
  const deeper = nestedPaths(schema, segment).slice(0, 3);
  if (deeper.length > 0) return `${unknown}; did you mean ${quoteList(deeper.map((p) => (walked ? `${walked}.${p}` : p)))}?`;
  return `${unknown}; valid fields are: ${names.join(', ')}`;
}

/** Validates one trimmed path starting at `position` in the mask text and adds it to the tree. */
function addPath(root: PathNode, path: string, position: number): void {
  let schema: MessageSchema | undefined = podSchema().pod;
  let node = root;
  let walked = '';
  let offset = position;
  const fail = (segment: string, problem: string, at = offset) => new FieldMaskError(`field mask path ${q(path)}: ${problem}`, path, segment, at);
  for (const segment of path.split('.')) {
    if (segment === '') throw fail('', `empty field name${walked ? ` after "${walked}"` : ''}; separate field names with a single dot`);
    const space = segment.search(/\s/);
    if (space >= 0) throw fail(segment, `${q(segment)} contains a space; paths are field names joined by dots, separated by commas`, offset + space);
    if (schema === undefined) throw fail(segment, `"${walked}" is ${describeLeaf(node.field!)}: nothing can follow it (found ${q(segment)}); use "${walked}"`);
    const member = schema.memberByName.get(segment);
    if (member === undefined) throw fail(segment, unknownMemberProblem(schema, segment, walked, path));
    let child = node.children.get(segment);
    if (child === undefined) node.children.set(segment, (child = { field: member.field, whole: false, children: new Map() }));
    node = child;
    schema = innerMessage(member.field);
    walked = walked ? `${walked}.${segment}` : segment;
    offset += segment.length + 1;
  }
  node.whole = true;
}

function compile(node: PathNode, schema: MessageSchema, prefix: string, paths: string[]): Selection {
  const members: SelectedMember[] = [];
  // Schema order keeps the canonical text stable however the user ordered the paths.
  for (const { name } of schema.members) {
    const child = node.children.get(name);
    if (child === undefined) continue;
    const path = prefix + name;
    const inner = child.whole ? undefined : compile(child, innerMessage(child.field!)!, `${path}.`, paths);
    if (child.whole) paths.push(path);
    members.push({ name, list: child.field!.repeated, inner });
  }
  return { members, byName: new Map(members.map((m) => [m.name, m.inner])) };
}

/**
 * Parses and validates a mask text. Whitespace around paths and empty entries (`a,,b,`) are
 * ignored. Throws FieldMaskError naming the bad path and segment, with its position in the text,
 * when a path is not valid or the mask has no path at all.
 */
export function parseFieldMask(text: string): FieldMask {
  const root: PathNode = { field: undefined, whole: false, children: new Map() };
  let start = 0;
  for (const entry of text.split(',')) {
    const path = entry.trim();
    if (path !== '') addPath(root, path, start + entry.length - entry.trimStart().length);
    start += entry.length + 1;
  }
  if (root.children.size === 0) {
    throw new FieldMaskError('the field mask has no paths: give comma-separated field paths such as "metadata.name, status.phase", or clear it to get whole pods', '', '', 0);
  }
  const paths: string[] = [];
  const selection = compile(root, podSchema().pod, '', paths);
  return { paths, selection };
}

/** The canonical mask text, as sent in request metadata and shown in exports. */
export function formatFieldMask(mask: FieldMask): string {
  return mask.paths.join(',');
}
