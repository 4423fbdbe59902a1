/**
 * Pod values from JSON text, exactly, for the two cases JSON.parse cannot serve: integers beyond ±(2^53-1),
 * which it rounds (int64 fields must stay exact, as bigint), and errors, which it reports without a reliable
 * position. Pod files use JSON.parse first and come here only for those.
 */
import { parseJson, type JsonBuild } from '../pod/json-parser';
import { setKey, type PodObject, type PodValue } from '../pod/pod-tree';

export { JsonSyntaxError } from '../pod/json-parser';

const podValues = (maxDepth: number): JsonBuild<PodValue, PodObject> => ({
  object: () => ({}),
  member: setKey,
  fromObject: (object) => object,
  fromArray: (items) => items,
  number: (literal, integer) => {
    const n = Number(literal);
    // An integer literal a double cannot hold exactly stays exact.
    return integer && !Number.isSafeInteger(n) ? BigInt(literal) : n;
  },
  maxDepth,
});

/** Parses `text` exactly; nesting deeper than `maxDepth` objects and arrays is refused. */
export const parseExactJson = (text: string, maxDepth: number): PodValue => parseJson(text, podValues(maxDepth));
