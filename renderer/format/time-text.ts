/**
 * The one way the UI writes an instant, in every view (feed, history, detail, recordings, diffs):
 * local time, 24-hour, "18:47:22" on the day it is now and "2026-11-26 18:47:22" on any other, so a
 * time in the history reads like the same time in the events feed. Milliseconds and the zone are in
 * timeTitle, for a tooltip.
 */
export function timeText(ms: number, now: number = Date.now()): string {
  const t = new Date(ms);
  const clock = `${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}`;
  return dayOf(t) === dayOf(new Date(now)) ? clock : `${dayOf(t)} ${clock}`;
}

/** The full instant with milliseconds and the zone it is written in: "2026-11-27 18:47:22.281 (local time, UTC+01:00)". */
export function timeTitle(ms: number): string {
  const t = new Date(ms);
  return `${dayOf(t)} ${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}.${String(t.getMilliseconds()).padStart(3, '0')} (${zoneText(ms)})`;
}

/** Which time the UI's times are in, said where the user looks for it (feed header, tooltips): "local time, UTC+01:00". */
export function zoneText(ms: number = Date.now()): string {
  // getTimezoneOffset is minutes behind UTC: -60 is UTC+01:00.
  const offset = -new Date(ms).getTimezoneOffset();
  const abs = Math.abs(offset);
  return `local time, UTC${offset < 0 ? '−' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

const two = (n: number) => String(n).padStart(2, '0');
const dayOf = (t: Date) => `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())}`;
