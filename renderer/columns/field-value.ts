/**
 * A field column's value in one row: the values the field holds (several through lists), null when the
 * pod has no such field, 'masked' when the node's mask left the field out, 'loading' while it is read.
 */
export type FieldValue = readonly string[] | null | 'masked' | 'loading';

/** A row's field columns' values, by field path. */
export type FieldValues = Readonly<Record<string, FieldValue>>;
