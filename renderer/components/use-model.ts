import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { AppModel } from '../state/app-model';

/** Re-renders the caller whenever the model changes (at most once per frame for pod events). */
export function useModelVersion(model: AppModel): number {
  return useSyncExternalStore(model.subscribe, model.getVersion);
}

/** Re-renders the caller when pods, the feed or pod counts change, as well as on any other change. */
export function usePodsVersion(model: AppModel): number {
  return useSyncExternalStore(model.subscribePods, model.getPodsVersion);
}

/** Whether the node has pods; re-renders the caller only when that flips, not on every batch. */
export function useHasPods(model: AppModel, nodeId: string | null): boolean {
  return useSyncExternalStore(model.subscribePods, () => (nodeId ? model.pods.count(nodeId) > 0 : false));
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

/**
 * A value that follows `value` at most once per `intervalMs`, the latest change always landing in
 * the end: for live regions fed by something that changes faster than anyone can listen. (A debounce
 * would never settle under constant churn.)
 */
export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const lastShown = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const timer = setTimeout(
      () => {
        lastShown.current = Date.now();
        setShown(value);
      },
      Math.max(0, lastShown.current + intervalMs - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [value, shown, intervalMs]);
  return shown;
}
