import { useEffect, useState, useSyncExternalStore } from 'react';
import type { AppModel } from '../state/app-model';

/** Re-renders the caller whenever the model changes (at most once per frame for pod events). */
export function useModelVersion(model: AppModel): number {
  return useSyncExternalStore(model.subscribe, model.getVersion);
}

/** The current time, refreshed every `intervalMs`, for ages and countdowns. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** A value that settles `delayMs` after the last change (validation while typing). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
