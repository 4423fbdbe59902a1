import type { ReactNode } from 'react';
import type { AppModel } from '../state/app-model';
import { usePodsVersion } from './use-model';

/**
 * Draws `children()` again on every pod batch (and whenever the window re-renders), so only the views
 * of pods follow a busy node frame by frame, not the whole window around them.
 */
export function FollowPods({ model, children }: { model: AppModel; children: () => ReactNode }) {
  usePodsVersion(model);
  return <>{children()}</>;
}
