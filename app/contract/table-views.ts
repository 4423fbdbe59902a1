import { z } from 'zod';
import { NodeIdSchema } from './nodes';

/**
 * The pod table's columns and the user's saved views, kept by the app core in its state folder so they
 * outlive a restart (browser mode takes a new port, and so a new origin, every run: the page's own
 * storage would forget them).
 */

/** A column: a built-in one by its key (`restarts`), or one of a pod field by `field:` and its mask path. */
export const ColumnIdSchema = z.string().min(1).max(400);

/**
 * The columns in the user's order. `shown` undefined: as by default (shown, unless no row in view has a
 * value there, e.g. CPU on a Pods API node); true or false: the user's choice.
 */
export const ColumnLayoutSchema = z.object({
  columns: z.array(z.object({ id: ColumnIdSchema, shown: z.boolean().optional() })).max(100),
});
export type ColumnLayout = z.infer<typeof ColumnLayoutSchema>;

/** A filter, columns and a sort under a name, offered in the : palette. */
export const SavedViewSchema = z.object({
  name: z.string().trim().min(1, 'Name the view').max(60, 'A view name is at most 60 characters'),
  filter: z.string().max(2000),
  /** A built-in column's key, or `field:` and a field's path (as long as a column id). */
  sort: z.object({ key: ColumnIdSchema, descending: z.boolean() }),
  columns: ColumnLayoutSchema,
});
export type SavedView = z.infer<typeof SavedViewSchema>;

/**
 * Which table a layout is for, by name: `node`, one node's pods table; `fleet`, the table over several
 * sources (its NODE column tells their rows apart). Each keeps its own columns; saved views serve both.
 */
export const TableKindSchema = z.enum(['node', 'fleet']);
export type TableKind = z.infer<typeof TableKindSchema>;

export const TableViewsSchema = z.object({
  layouts: z.object({ node: ColumnLayoutSchema.optional(), fleet: ColumnLayoutSchema.optional() }),
  saved: z.array(SavedViewSchema).max(200),
});
export type TableViews = z.infer<typeof TableViewsSchema>;

/** At most this many pods and fields per pods.fields request: a screenful of rows, a table's columns. */
export const MAX_FIELD_PODS = 500;
export const MAX_FIELD_PATHS = 30;

/** Values of pod fields (mask paths, e.g. `spec.priorityClassName`), for the table's field columns. */
export const PodFieldsRequestSchema = NodeIdSchema.extend({
  uids: z.array(z.string().min(1)).max(MAX_FIELD_PODS),
  paths: z.array(z.string().min(1).max(400)).min(1).max(MAX_FIELD_PATHS),
});

/**
 * Per pod UID (pods no longer there are left out), one entry per path: the values the path reaches as
 * text (several through lists), or null where the pod has no such field.
 */
export const PodFieldsSchema = z.object({ values: z.record(z.string(), z.array(z.array(z.string()).nullable())) });
export type PodFields = z.infer<typeof PodFieldsSchema>;

/** One field's values on every pod of the node, for sorting the table by that field's column. */
export const PodFieldColumnRequestSchema = NodeIdSchema.extend({ path: z.string().min(1).max(400) });

/** Per pod UID: the values the path reaches as text (several through lists), or null where the pod has no such field. */
export const PodFieldColumnSchema = z.object({ values: z.record(z.string(), z.array(z.string()).nullable()) });
export type PodFieldColumn = z.infer<typeof PodFieldColumnSchema>;
