import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';

declare global {
  interface Window {
    /** Each call of a `record`ed callback: its name and arguments, for the test to read. */
    recorded: [string, ...unknown[]][];
  }
}

window.recorded = [];

/** A callback that notes its calls in window.recorded (e2e/testing/component-page.ts reads them). */
export function record<A extends unknown[]>(name: string): (...args: A) => void {
  return (...args) => void window.recorded.push([name, ...args]);
}

/** Which case the test asked for (the page's ?query). */
export const testCase = new URLSearchParams(window.location.search).get('case') ?? '';

/** Mounts a test page's component in #root, as mount-app.tsx mounts the window. */
export function mountForTest(element: ReactNode): void {
  createRoot(document.getElementById('root')!).render(element);
}
