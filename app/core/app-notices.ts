import type { Notice } from '../contract';
import type { AppEvent } from './app-event';

/**
 * The app's own problems, and what it did on its own, for the UI. Kept until dismissed, so a window opened after the problem
 * (Electron's first window, a browser tab) still shows it; one notice per kind, so a save failing on
 * every change does not stack banners.
 */
export class AppNotices {
  private readonly byKind = new Map<string, Notice>();
  private next = 1;

  constructor(private readonly emit: (event: AppEvent) => void) {}

  /** Shows a notice of this kind, replacing an earlier one of the same kind; `info` when nothing went wrong. */
  raise(kind: string, message: string, nextStep: string, tone?: 'info'): void {
    const notice: Notice = { id: `${kind}-${this.next++}`, message, nextStep, ...(tone ? { tone } : {}) };
    const earlier = this.byKind.get(kind);
    if (earlier) this.dismiss(earlier.id);
    this.byKind.set(kind, notice);
    this.emit({ name: 'notice', payload: notice });
  }

  /** The problem of this kind is over (a later save worked): its notice goes, if not dismissed yet. */
  clear(kind: string): void {
    const notice = this.byKind.get(kind);
    if (notice) this.dismiss(notice.id);
  }

  list(): Notice[] {
    return [...this.byKind.values()];
  }

  /** Every window drops it, not only the one where it was dismissed. */
  dismiss(id: string): void {
    for (const [kind, notice] of this.byKind) {
      if (notice.id !== id) continue;
      this.byKind.delete(kind);
      this.emit({ name: 'noticeClosed', payload: { id } });
    }
  }
}
