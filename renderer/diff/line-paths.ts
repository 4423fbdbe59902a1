/**
 * The path of every line of a pod's JSON text, as the diff names paths (list elements by identity),
 * so the side-by-side view can tell which changed lines a noise rule hides and which changes a line
 * belongs to. The text is kubectl's layout (one value per line), printed from `doc`.
 */
import type { DiffPath, PathPart } from '../../app/diff/diff-path';
import type { JsonValue } from '../../app/diff/diff-values';
import { identityFields, identityOf } from '../../app/diff/list-identity';

interface Frame {
  path: DiffPath;
  value: JsonValue | undefined;
  list: boolean;
  /** The next element's index, in a list. */
  next: number;
  fields: readonly string[] | undefined;
}

const KEY = /^("(?:[^"\\]|\\.)*")\s*:/;
const isRecord = (v: JsonValue | undefined): v is { [key: string]: JsonValue | undefined } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One path per line of `text`; a closing bracket's line has its block's path. */
export function jsonLinePaths(text: string, doc: JsonValue): DiffPath[] {
  const paths: DiffPath[] = [];
  const stack: Frame[] = [];
  for (const raw of text.replace(/\n$/, '').split('\n')) {
    const line = raw.trim();
    if (/^[}\]],?$/.test(line)) {
      paths.push(stack.pop()?.path ?? []);
      continue;
    }
    const top = stack.at(-1);
    let path: DiffPath = [];
    let value: JsonValue | undefined = doc;
    let name = '';
    if (top?.list) {
      const index = top.next++;
      value = Array.isArray(top.value) ? top.value[index] : undefined;
      const id = top.fields ? identityOf(value, top.fields) : undefined;
      const part: PathPart = id ? { kind: 'element', index, identity: id.shown } : { kind: 'element', index };
      path = [...top.path, part];
    } else if (top) {
      const key = KEY.exec(line);
      name = key ? (JSON.parse(key[1]!) as string) : '';
      value = isRecord(top.value) ? top.value[name] : undefined;
      path = [...top.path, { kind: 'key', name }];
    }
    paths.push(path);
    if (/[{[]$/.test(line)) stack.push({ path, value, list: line.endsWith('['), next: 0, fields: line.endsWith('[') ? identityFields(name) : undefined });
  }
  return paths;
}
