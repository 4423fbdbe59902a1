import { describe, expect, it } from 'vitest';
import { commandOfKey, KEY_BINDINGS, keyLabel } from './key-bindings';

const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('the key table', () => {
  it('maps the k9s keys to their commands and arguments', () => {
    expect(commandOfKey(press('j'), false)).toEqual({ command: 'move', arg: 'down' });
    expect(commandOfKey(press('k'), false)).toEqual({ command: 'move', arg: 'up' });
    expect(commandOfKey(press('g'), false)).toEqual({ command: 'move', arg: 'first' });
    expect(commandOfKey(press('G'), false)).toEqual({ command: 'move', arg: 'last' });
    expect(commandOfKey(press('T'), false)).toEqual({ command: 'sort', arg: 'restarts' });
    expect(commandOfKey(press('S'), false)).toEqual({ command: 'sort', arg: 'status' });
    expect(commandOfKey(press('2'), false)).toEqual({ command: 'tab', arg: 1 });
    expect(commandOfKey(press(':'), false)).toEqual({ command: 'palette' });
    expect(commandOfKey(press('e'), false)).toEqual({ command: 'export' });
    expect(commandOfKey(press('m'), false)).toEqual({ command: 'fields' });
    expect(commandOfKey(press('r'), false)).toEqual({ command: 'record' });
  });

  it('leaves keys to a text field, except Esc, and Ctrl/Cmd/Alt combinations to the browser', () => {
    expect(commandOfKey(press('j'), true)).toBeNull();
    expect(commandOfKey(press(':'), true)).toBeNull();
    expect(commandOfKey(press('Escape'), true)).toEqual({ command: 'escape' });
    expect(commandOfKey(press('r', { ctrlKey: true }), false)).toBeNull();
    expect(commandOfKey(press('e', { metaKey: true }), false)).toBeNull();
    expect(commandOfKey(press('x'), false)).toBeNull();
  });

  it('binds each page-wide key once, so a key never means two things', () => {
    const keys = KEY_BINDINGS.flatMap((b) => (b.command ? b.keys : []));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    for (const b of KEY_BINDINGS) if (b.args) expect(b.args.length).toBe(b.keys.length);
  });

  it('prints keys as the help shows them', () => {
    expect(keyLabel('ArrowDown')).toBe('↓');
    expect(keyLabel('Escape')).toBe('Esc');
    expect(keyLabel('N')).toBe('Shift+N');
    expect(keyLabel('j')).toBe('j');
  });
});
