/**
 * JSON text as a diffable value, int64 beyond 2^53 kept exact. Apart from kubectl-json-value.ts so the
 * renderer can parse the JSON it shows without reaching the pod printer.
 */
import { parseExactJson } from '../snapshot/exact-json';
import type { JsonValue } from './diff-values';

/** Deeper than any pod kubectl prints; the printer refuses deeper ones itself. */
const MAX_DEPTH = 100_000;

/** JSON text as a value, int64 beyond 2^53 kept exact (JSON.parse would round them). */
export function exactJsonValue(text: string): JsonValue {
  // A run of 16 digits may be a number JSON.parse rounds; the exact parser is slower, so only then.
  return /\d{16}/.test(text) ? parseExactJson(text, MAX_DEPTH) : (JSON.parse(text) as JsonValue);
}
