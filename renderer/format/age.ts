/** kubectl's AGE: two units while they matter (3m20s, 5h12m, 2d4h), one after. */
export function formatAge(createdAt: string | null, now: number): string {
  if (!createdAt) return '—';
  const seconds = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 1000));
  if (Number.isNaN(seconds)) return '—';
  const m = Math.floor(seconds / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (seconds < 120) return `${seconds}s`;
  if (m < 10) return `${m}m${seconds % 60 ? `${seconds % 60}s` : ''}`;
  if (h < 3) return `${m}m`;
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (d < 2) return `${h}h`;
  if (d < 8) return `${d}d${h % 24 ? `${h % 24}h` : ''}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
