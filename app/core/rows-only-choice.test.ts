// Which nodes keep rows only (docs/app.md, "Rows-only nodes"): more live sources than the setting, counted
// with the nodes a batch has still to add, since nodes.addMany adds them in time slices.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, handleRequest } from '../contract';
import { createCore, type Core } from './core';

const open: Core[] = [];
afterEach(async () => {
  for (const hub of open.splice(0)) await hub.close();
});

/** Adds `count` nodes at once; what each node's link is told when it asks, in the order they connect. */
async function choices(count: number, rowsOnlyAbove: number): Promise<boolean[]> {
  const answers: boolean[] = [];
  // Each link asks as it opens, as early as a link could (a real one asks as its first pod arrives).
  const hub = createCore({
    openLink: (request) => (answers.push(request.rowsOnly!()), { close: async () => undefined }),
    settings: { ...DEFAULT_SETTINGS, rowsOnlyAbove },
    sliceMs: 0,
    frameMs: 1,
  });
  open.push(hub);
  const added = await handleRequest(hub.handlers, 'nodes.addMany', { nodes: Array.from({ length: count }, (_, i) => ({ kind: 'unix', socketPath: `/run/n${i}.sock` })) });
  expect(added.ok).toBe(true);
  return answers;
}

describe('the rows-only choice', () => {
  it('counts a whole batch added at once, so its first nodes choose as its last do', async () => {
    expect(await choices(50, 10)).toEqual(Array.from({ length: 50 }, () => true));
  });

  it('keeps whole pods at or below the setting', async () => {
    expect(await choices(50, 50)).toEqual(Array.from({ length: 50 }, () => false));
  });
});
