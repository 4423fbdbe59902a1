import { describe, expect, it } from 'vitest';
import type { NodeInfo } from '../../app/contract/nodes';
import { withNode, withoutNode } from './node-list';

const node = (id: string, more: Partial<NodeInfo> = {}): NodeInfo => ({
  id,
  label: id,
  simulated: false,
  spec: { kind: 'unix', socketPath: `/run/${id}.sock` },
  state: { phase: 'connecting', attempt: 1 },
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount: 0,
  ...more,
});

describe('node list reducers', () => {
  it('adds a node it does not know, last', () => {
    const { nodes, change } = withNode([node('a')], node('b'));
    expect(nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(change).toBe('added');
  });

  it('replaces a known node in its place', () => {
    const live = node('a', { state: { phase: 'live', since: 1 } });
    const { nodes, change } = withNode([node('a'), node('b')], live);
    expect(nodes).toEqual([live, node('b')]);
    expect(change).toBe('changed');
  });

  it('tells a pod count that moved alone from any other change', () => {
    expect(withNode([node('a')], node('a', { podCount: 3 })).change).toBe('podCount');
    expect(withNode([node('a')], node('a', { podCount: 3, label: 'worker-1' })).change).toBe('changed');
    expect(withNode([node('a')], node('a')).change).toBe('same');
  });

  it('removes a node, and leaves the list as it was for one it does not know', () => {
    const list = [node('a'), node('b')];
    expect(withoutNode(list, 'a')).toEqual([node('b')]);
    expect(withoutNode(list, 'zz')).toEqual(list);
  });
});
