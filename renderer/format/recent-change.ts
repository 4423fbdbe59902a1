/** How long a pod's last change is marked as recent, in the table and the detail. */
export const RECENT_CHANGE_MS = 5 * 60_000;

export const isRecent = (time: number, now: number): boolean => now - time < RECENT_CHANGE_MS;

/** "12s ago", "3m ago": how long since a change, in the table's age units. */
export function agoText(time: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  return seconds < 60 ? `${seconds}s ago` : `${Math.floor(seconds / 60)}m ago`;
}
