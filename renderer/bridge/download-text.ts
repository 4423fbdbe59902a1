const TYPES = { csv: 'text/csv;charset=utf-8', json: 'application/json', yaml: 'application/yaml', text: 'text/plain;charset=utf-8' } as const;

/**
 * Saves text the page made (a CSV or JSON export of what is on screen, a pod's JSON or YAML, a container log) as a download: the browser or
 * Electron asks where, as for any download; nothing crosses the bridge.
 */
export function downloadText(fileName: string, text: string, format: keyof typeof TYPES): void {
  const blob = new Blob([text], { type: TYPES[format] });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  // The click has started the download by the next task; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
