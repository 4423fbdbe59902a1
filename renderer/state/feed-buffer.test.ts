import { describe, expect, it } from 'vitest';
import type { FeedLine } from '../../app/contract/pods';
import { FeedBuffer, newSincePause } from './feed-buffer';

const line = (n: number): FeedLine => ({ time: n, nodeId: 'n1', type: 'MODIFIED', namespace: 'ns', name: `pod-${n}`, uid: `u${n}`, change: 'restarted' });

describe('events feed: new lines while paused', () => {
  it('counts the lines that came in since the pause', () => {
    const feed = new FeedBuffer(5);
    feed.push([line(1), line(2)]);
    const top = feed.lines()[0];
    expect(newSincePause(feed.lines(), top, feed.limit)).toBeNull();
    feed.push([line(3), line(4)]);
    expect(newSincePause(feed.lines(), top, feed.limit)).toBe('2');
  });

  it('says "limit+" once the line shown at the pause has dropped out of the buffer', () => {
    const feed = new FeedBuffer(5);
    feed.push([line(1)]);
    const top = feed.lines()[0];
    feed.push([2, 3, 4, 5, 6, 7].map(line));
    expect(newSincePause(feed.lines(), top, feed.limit)).toBe('5+');
  });

  it('counts from an empty feed, up to the limit', () => {
    const feed = new FeedBuffer(5);
    feed.push([line(1), line(2)]);
    expect(newSincePause(feed.lines(), undefined, feed.limit)).toBe('2');
    feed.push([3, 4, 5, 6].map(line));
    expect(newSincePause(feed.lines(), undefined, feed.limit)).toBe('5+');
  });
});
