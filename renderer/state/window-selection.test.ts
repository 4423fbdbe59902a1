import { describe, expect, it } from 'vitest';
import { closePod, NO_SELECTION, openPod, selectNode, selectPod, setChecked, showPod, toggleChecked, type WindowSelection } from './window-selection';

const all = () => true;

describe('window selection', () => {
  it('shows a picked node with nothing in it selected, unticking the rest', () => {
    const busy: WindowSelection = { nodeId: 'a', checked: ['a', 'b'], selectedUid: 'p1', openUid: 'p1' };
    expect(selectNode(busy, 'b')).toEqual({ ...NO_SELECTION, nodeId: 'b' });
  });

  it('shows one source left ticked alone as that node', () => {
    let s = setChecked({ ...NO_SELECTION, nodeId: 'a' }, ['a', 'b']);
    s = toggleChecked(s, 'a', all);
    expect(s).toMatchObject({ checked: ['b'], nodeId: 'b' });
    s = toggleChecked(s, 'c', all);
    expect(s).toMatchObject({ checked: ['b', 'c'], nodeId: 'b' });
  });

  it('forgets ticked sources that were removed when ticking another', () => {
    const s = toggleChecked(setChecked(NO_SELECTION, ['gone', 'b']), 'c', (id) => id !== 'gone');
    expect(s.checked).toEqual(['b', 'c']);
  });

  it('moves an open detail with the selection, and opens none when it was closed', () => {
    const open = openPod(NO_SELECTION, 'p1');
    expect(selectPod(open, 'p2')).toMatchObject({ selectedUid: 'p2', openUid: 'p2' });
    expect(selectPod(closePod(open), 'p2')).toMatchObject({ selectedUid: 'p2', openUid: null });
  });

  it('goes to a pod of another node from the feed, opened there', () => {
    const s = showPod({ nodeId: 'a', checked: ['a', 'b'], selectedUid: 'x', openUid: null }, 'b', 'p9');
    expect(s).toEqual({ nodeId: 'b', checked: [], selectedUid: 'p9', openUid: 'p9' });
  });
});
