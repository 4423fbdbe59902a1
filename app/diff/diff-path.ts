/**
 * Where a difference is, as the parts of a path through a pod's kubectl JSON. A list element is named
 * by its identity when its list has one (`containers[name=app]`), by position otherwise.
 */
export type PathPart =
  | { kind: 'key'; name: string }
  | { kind: 'element'; index: number; identity?: readonly (readonly [field: string, value: string])[] };

export type DiffPath = readonly PathPart[];

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `spec.containers[name=app].image`, as people read and write it (and as --ignore takes it). */
export function formatPath(path: DiffPath): string {
  let text = '';
  for (const part of path) {
    if (part.kind === 'element') {
      text += part.identity ? `[${part.identity.map(([f, v]) => `${f}=${v}`).join(',')}]` : `[${part.index}]`;
    } else if (PLAIN_KEY.test(part.name)) {
      text += text === '' ? part.name : `.${part.name}`;
    } else {
      // Label and annotation keys hold dots and slashes: quoted, so the path stays unambiguous.
      text += `[${JSON.stringify(part.name)}]`;
    }
  }
  return text;
}

/** RFC 6901 pointer of a path whose element indices are positions in the document it applies to. */
export function pointerOf(parts: readonly (string | number)[]): string {
  let pointer = '';
  for (const part of parts) pointer += `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return pointer;
}
