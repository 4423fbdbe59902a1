import type { CoreState } from './core-state';
import type { CoreHandlers } from './core-types';

/** The questions for the user (host keys, passphrases, logins, certificates) and their answers. */
export function promptHandlers(core: CoreState): Pick<CoreHandlers, 'prompts.pending' | 'prompts.answer'> {
  const { prompts } = core;
  return {
    'prompts.pending': () => prompts.pending(),
    'prompts.answer': ({ promptId, answer }) => {
      prompts.answer(promptId, answer);
      return {};
    },
  };
}
