/**
 * Decoding only some fields of a pod: exactly `applyFieldMask(decodePod(bytes).pod, mask)`, at the cost of
 * the fields the mask selects. A pod's bytes are mostly what a holder of many pods never reads (managedFields,
 * env, volumes, annotations); those are passed over by their lengths, unread.
 * The decoders come from the same generator as decode.ts's: per message a function with the cases of the
 * fields the mask reaches, which call the whole decoders for a field selected whole and another pruned
 * function for one selected in part. Bytes are checked as far as they are read: a length that runs past its
 * message, a wire type no pod has, a malformed selected field are PodDecodeErrors as decodePod's are; a
 * malformed value inside a field passed over is not seen (it is never read). Unknown fields are kept only
 * inside fields selected whole. Errors name the pod by what the mask decodes of its identity (metadata.name,
 * namespace, uid), else by `label`.
 */
import { compileFunctions } from '../schema/compile-functions';
import type { FieldSchema, MessageSchema } from '../schema/pod-schema';
import { podSchema } from '../schema/pod-schema';
import type { FieldMask, Selection } from '../mask/field-mask';
import { compiledDecoders, fieldCases, fnName, messageDecoder, runPodDecoder, SUB_HELPER, type MessageDecoder } from './decode';
import type { DecodedPod } from './pod-tree';

/** The members of `selection` that an inline embed of `message` holds (its members, flattened, are the parent's). */
export function withinEmbed(selection: Selection, message: MessageSchema): Selection {
  const members = selection.members.filter((m) => message.memberByName.has(m.name));
  return { members, byName: new Map(members.map((m) => [m.name, m.inner])) };
}

/** The generated source of the pruned decoders for one mask, the pod's last; returns the pod's function. */
function prunedSource(mask: FieldMask): string {
  const { messages } = compiledDecoders();
  const functions: string[] = [];
  const generate = (message: MessageSchema, selection: Selection): string => {
    const name = `p${functions.length}_${fnName(message).slice(2)}`;
    functions.push('');
    const slot = functions.length - 1;
    const cases: string[] = [];
    for (const field of message.fields) {
      const c = caseFor(field, selection);
      if (c !== undefined) cases.push(c);
    }
    functions[slot] = messageDecoder(name, cases, messages.indexOf(message), 'skipUnread');
    return name;
  };
  const caseFor = (field: FieldSchema, selection: Selection): string | undefined => {
    if (field.inline) {
      const inner = withinEmbed(selection, field.message!);
      if (inner.members.length === 0) return undefined;
      const name = generate(field.message!, inner);
      return fieldCases(field, () => name);
    }
    if (!selection.byName.has(field.json)) return undefined;
    const inner = selection.byName.get(field.json);
    if (inner === undefined) return fieldCases(field);
    // Selected in part: this field's message through a pruned function, the messages within it whole.
    const name = generate(field.message!, inner);
    return fieldCases(field, () => name);
  };
  const pod = generate(podSchema().pod, mask.selection);
  const whole = messages.map(fnName);
  return [`const { ${whole.join(', ')} } = decoders;`, ...functions, SUB_HELPER, `return ${pod};`].join('\n\n');
}

/** Compiled per mask (by its canonical paths); a holder uses one or two masks for the life of the app. */
const pruned = new Map<string, MessageDecoder>();
/** The same by the mask object, which a holder hands in for every pod: no key to build per pod. */
const prunedByMask = new WeakMap<FieldMask, MessageDecoder>();

function prunedDecoder(mask: FieldMask): MessageDecoder {
  let decoder = prunedByMask.get(mask);
  if (decoder !== undefined) return decoder;
  const key = mask.paths.join(',');
  decoder = pruned.get(key);
  if (decoder === undefined) {
    const { byName, messages } = compiledDecoders();
    decoder = compileFunctions<MessageDecoder>(prunedSource(mask), { decoders: byName, schemas: messages });
    pruned.set(key, decoder);
  }
  prunedByMask.set(mask, decoder);
  return decoder;
}

/**
 * The pod's fields that `mask` selects, as `applyFieldMask(decodePod(bytes, label).pod, mask)` gives them
 * (unknownFields: those inside fields selected whole). `label` names the pod in errors as decodePod's does.
 */
export function decodePodFields(bytes: Uint8Array, mask: FieldMask, label = 'pod'): DecodedPod {
  return runPodDecoder(prunedDecoder(mask), bytes, label);
}
