/**
 * Saves text the page made (a CSV or JSON export of what is on screen) as a download: the browser or
 * Electron asks where, as for any download; nothing crosses the bridge.
 */
export function downloadText(fileName: string, text: string, format: 'csv' | 'json'): void {
  const blob = new Blob([text], { type: format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  // The click has started the download by the next task; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
