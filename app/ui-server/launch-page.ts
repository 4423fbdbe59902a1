import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LaunchPage {
  /** file:// URL of the page; safe to put on a command line. */
  fileUrl: string;
  /** Deletes the page (the token in it dies with the run anyway). */
  remove(): void;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page that forwards the browser to the token URL, in a fresh 0700 folder under `parentDir`, 0600.
 * The browser opener and the browser get its path on their command lines instead of the URL: any
 * local user can read a process's arguments (ps, /proc), but not this file. Notebook servers open
 * their browsers the same way.
 */
export function writeLaunchPage(url: string, parentDir: string): LaunchPage {
  mkdirSync(parentDir, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(parentDir, 'browser-open-'));
  const file = join(dir, 'open-nodescope.html');
  const href = escapeHtml(url);
  writeFileSync(
    file,
    `<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0;url=${href}">\n<title>Opening Nodescope</title>\n<p><a href="${href}">Open Nodescope</a></p>\n`,
    { mode: 0o600, flag: 'wx' },
  );
  return { fileUrl: pathToFileURL(file).href, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
