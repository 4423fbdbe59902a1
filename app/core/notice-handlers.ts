import type { CoreState } from './core-state';
import type { CoreHandlers } from './core-types';

/** The app's notices (files it could not save or read, recordings stopped) and their dismissal. */
export function noticeHandlers(core: CoreState): Pick<CoreHandlers, 'notices.list' | 'notices.dismiss'> {
  const { notices } = core;
  return {
    'notices.list': () => notices.list(),
    'notices.dismiss': ({ id }) => {
      notices.dismiss(id);
      return {};
    },
  };
}
