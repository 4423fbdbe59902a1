import { describe, expect, it } from 'vitest';
import { movedOption, shownOption } from './use-list-navigation';

describe('a list picked from a text box', () => {
  it('moves one option with ↓ and ↑, held at either end; other keys are the text box’s', () => {
    expect(movedOption(0, 'ArrowDown', 3)).toBe(1);
    expect(movedOption(2, 'ArrowDown', 3)).toBe(2);
    expect(movedOption(1, 'ArrowUp', 3)).toBe(0);
    expect(movedOption(0, 'ArrowUp', 3)).toBe(0);
    expect(movedOption(0, 'j', 3)).toBeUndefined();
    expect(movedOption(0, 'Enter', 3)).toBeUndefined();
  });

  it('shows no option active in an empty list, and the last when the list shrank under the active one', () => {
    expect(shownOption(0, 0)).toBe(-1);
    expect(shownOption(movedOption(-1, 'ArrowDown', 0)!, 0)).toBe(-1);
    expect(shownOption(5, 3)).toBe(2);
    expect(shownOption(1, 3)).toBe(1);
  });
});
