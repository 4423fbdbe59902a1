/**
 * Suggestions for the mask box: the field names that may come next in the path being typed.
 */
import { podSchema, type MessageSchema } from '../schema/pod-schema';
import { innerMessage } from './mask-schema';

/**
 * The valid next segments for the last path of a partial mask text (what follows the last comma),
 * sorted: `"spec.cont"` → `["containers"]`, `"status."` → every status field. The segment being
 * typed matches case-insensitively at its start. None when the path so far is not valid or ends
 * at a field nothing can follow (a map, a scalar, a time, ...).
 */
export function fieldMaskCompletions(prefix: string): string[] {
  const segments = prefix.slice(prefix.lastIndexOf(',') + 1).trimStart().split('.');
  const typed = segments.pop()!.toLowerCase();
  let schema: MessageSchema | undefined = podSchema().pod;
  for (const segment of segments) {
    const member = schema.memberByName.get(segment);
    if (member === undefined) return [];
    schema = innerMessage(member.field);
    if (schema === undefined) return [];
  }
  // members are already in byte order.
  return schema.members.filter((m) => m.name.toLowerCase().startsWith(typed)).map((m) => m.name);
}
