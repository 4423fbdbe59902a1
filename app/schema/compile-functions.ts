/**
 * Compiles generated JavaScript (per-message decoders and printers) into functions, the technique
 * protobufjs uses for its own decoders: straight-line code per message with constant property names is
 * several times faster than walking the schema at run time. Only ever fed source built from our own schema,
 * never from input data, and only in Node (the renderer's CSP forbids it and never needs it).
 */
export function compileFunctions<T>(source: string, deps: Record<string, unknown>): T {
  const names = Object.keys(deps);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(...names, `'use strict';\n${source}`) as (...args: unknown[]) => T;
  return factory(...names.map((n) => deps[n]));
}

/** A JavaScript string literal for generated code. */
export const js = (s: string): string => JSON.stringify(s);
