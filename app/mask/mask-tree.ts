/**
 * The pod's fields as a tree for choosing a mask: every path a mask may name, with its JSON name,
 * its type as `kubectl explain` writes it, and list and map marks. Browser-safe; the builder and
 * `nodescope mask tree` both read it.
 */
import { podSchema, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { innerMessage } from './mask-schema';

export interface MaskTreeNode {
  /** The JSON name, as kubectl prints it. */
  name: string;
  /** The mask path: names joined by dots. */
  path: string;
  /** kubectl explain's type: `<string>`, `<[]Container>`, `<map[string]string>`, `<Object>`. */
  type: string;
  list: boolean;
  map: boolean;
  /** The fields a path may continue into; empty for a leaf (a map is selected whole). */
  children: MaskTreeNode[];
}

const SCALAR_TYPES: Record<string, string> = { string: 'string', bool: 'boolean', int32: 'integer', int64: 'integer', bytes: 'string' };
const SPECIAL_TYPES: Record<string, string> = { time: 'Time', quantity: 'Quantity', intOrString: 'IntOrString', fieldsV1: 'FieldsV1' };

function elementType(field: FieldSchema): string {
  if (field.scalar) return SCALAR_TYPES[field.scalar]!;
  const message = field.message!;
  return message.special ? SPECIAL_TYPES[message.special]! : message.name;
}

export function typeOf(field: FieldSchema): string {
  const element = elementType(field);
  if (field.map) return `<map[string]${element}>`;
  if (field.repeated) return `<[]${element}>`;
  return field.message && !field.message.special ? '<Object>' : `<${element}>`;
}

function childrenOf(message: MessageSchema, prefix: string, seen: readonly MessageSchema[]): MaskTreeNode[] {
  return message.members.map(({ name, field }) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const inner = innerMessage(field);
    // A message inside itself would never end; the pod has none today, and this keeps it so.
    const children = inner && !seen.includes(inner) ? childrenOf(inner, path, [...seen, inner]) : [];
    return { name, path, type: typeOf(field), list: field.repeated && !field.map, map: field.map, children };
  });
}

let root: MaskTreeNode[] | undefined;

/** The top-level fields of the pod (metadata, spec, status) with everything under them; built once. */
export function maskTree(): MaskTreeNode[] {
  root ??= childrenOf(podSchema().pod, '', [podSchema().pod]);
  return root;
}

/** The node at `path`, or undefined when no field has that path. */
export function maskTreeNode(path: string): MaskTreeNode | undefined {
  let nodes = maskTree();
  let found: MaskTreeNode | undefined;
  for (const name of path.split('.')) {
    found = nodes.find((n) => n.name === name);
    if (!found) return undefined;
    nodes = found.children;
  }
  return found;
}

/** Every node under `nodes`, depth first (the tree's reading order). */
export function* walkMaskTree(nodes: readonly MaskTreeNode[]): Generator<MaskTreeNode> {
  for (const node of nodes) {
    yield node;
    yield* walkMaskTree(node.children);
  }
}
