/** A column of any pod field, by `field:` and its mask path (`field:spec.priorityClassName`). */
export type FieldColumnKey = `field:${string}`;

export const FIELD_PREFIX = 'field:';
export const fieldColumnKey = (path: string): FieldColumnKey => `${FIELD_PREFIX}${path}`;
export const isFieldKey = (id: string): id is FieldColumnKey => id.startsWith(FIELD_PREFIX) && id.length > FIELD_PREFIX.length;
export const fieldPathOf = (key: FieldColumnKey): string => key.slice(FIELD_PREFIX.length);
