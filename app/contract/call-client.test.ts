import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCallClient } from './call-client';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a call client\'s event listeners', () => {
  it('each gets the event though one before it throws, and the failure is still reported', () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = createCallClient(() => true);
    const got: string[] = [];
    const broken = new Error('the view broke');
    client.bridge.on('promptClosed', (p) => got.push(`first ${p.id}`));
    client.bridge.on('promptClosed', () => {
      throw broken;
    });
    client.bridge.on('promptClosed', (p) => got.push(`third ${p.id}`));

    client.receive({ type: 'event', name: 'promptClosed', payload: { id: 'p1' } });
    client.receive({ type: 'event', name: 'promptClosed', payload: { id: 'p2' } });

    expect(got).toEqual(['first p1', 'third p1', 'first p2', 'third p2']);
    expect(reported).toHaveBeenCalledTimes(2);
    expect(reported).toHaveBeenCalledWith(expect.stringContaining('promptClosed'), broken);
  });
});
