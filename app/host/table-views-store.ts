/**
 * The pod table's column layouts and saved views (ui.tableViews), kept across restarts in
 * table-views.json beside nodes.json (written atomically, private to the user). A file that cannot be
 * read is never written over: the app starts with the default columns and says what to do.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ContractError } from '../contract/errors';
import { TableViewsSchema, type TableViews } from '../contract/table-views';
import { writeFileAtomic } from '../fs/atomic-file';
import { readSmallFile, type SmallFileLimit } from '../fs/read-small-file';
import { whyCannotWrite } from '../fs/write-error';

/** 200 views of 100 columns stay far below this; more is not a file Nodescope wrote. */
const LIMIT: SmallFileLimit = { what: 'table views file', maxBytes: 8 << 20 };
const EMPTY: TableViews = { layouts: {}, saved: [] };

export const tableViewsPath = (stateDir: string) => join(stateDir, 'table-views.json');

export interface TableViewsStore {
  get(): TableViews;
  set(next: TableViews): Promise<TableViews>;
  /** What went wrong reading the file, for the app's notices; undefined when nothing did. */
  readonly problem?: { message: string; nextStep: string };
}

export async function openTableViewsStore(stateDir: string): Promise<TableViewsStore> {
  const path = tableViewsPath(stateDir);
  let views = EMPTY;
  let unreadable: string | null = null;
  try {
    const text = (await readSmallFile(path, LIMIT)).toString('utf8');
    const parsed = TableViewsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`not a Nodescope table views file: ${parsed.error.issues[0]!.message} at ${parsed.error.issues[0]!.path.join('.')}`);
    views = parsed.data;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') unreadable = (err as Error).message;
  }
  return {
    ...(unreadable !== null
      ? { problem: { message: `Your table columns and saved views could not be read (${unreadable}); the default columns are shown, and nothing will be saved over that file.`, nextStep: `Repair or remove ${path}, then restart Nodescope.` } }
      : {}),
    get: () => views,
    async set(next) {
      if (unreadable !== null) {
        throw new ContractError('save-failed', `Columns and views are not saved while ${path} cannot be read: ${unreadable}.`, 'Repair or remove that file, then restart Nodescope.');
      }
      try {
        await mkdir(stateDir, { recursive: true, mode: 0o700 });
        await writeFileAtomic(path, `${JSON.stringify({ version: 1, ...next }, null, 2)}\n`);
      } catch (err) {
        const why = whyCannotWrite(err) ?? (err as Error).message;
        throw new ContractError('save-failed', `Could not save the table columns and views to ${path}: ${why}.`, "Free up space or fix the folder's permissions, then try again.");
      }
      views = next;
      return views;
    },
  };
}
