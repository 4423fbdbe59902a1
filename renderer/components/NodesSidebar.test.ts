import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { recordedCalls, componentTestPages } from '../../e2e/testing/component-page';

const pages = componentTestPages(new URL('./NodesSidebar.test-page.tsx', import.meta.url));

describe('NodesSidebar on the fake bridge', () => {
  it('lists the nodes group by group, counting the nodes of each group by state', async () => {
    const { page, errors } = await pages.open();
    const nav = page.getByRole('navigation', { name: 'Nodes' });
    // Files have a group of their own, and a file is never live but shows its pods.
    await expect
      .poll(() => nav.locator('.group-toggle, .node-main').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))))
      .toEqual([
        'Files, 1 node: 1 offline',
        'Node f1: Snapshot (time not recorded)',
        'gpu, 2 nodes: 1 live',
        'Node gpu-1: Live',
        'Node gpu-2: Disconnected',
        'workers, 3 nodes: 2 live, 1 failed',
        'Node worker-1: Live',
        'Node worker-2: Live',
        'Node worker-3: Permission denied (publickey).',
      ]);
    expect(await nav.getByRole('button', { name: 'Node worker-3: Permission denied (publickey).' }).getAttribute('aria-current')).toBeNull();
    expect(await nav.getByRole('button', { name: /^Node worker-1: / }).getAttribute('aria-current')).toBe('true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows only the nodes of a state when its count is pressed, and searches by name', async () => {
    const { page } = await pages.open();
    const nav = page.getByRole('navigation', { name: 'Nodes' });
    await nav.getByRole('group', { name: 'Nodes by state' }).getByRole('button', { name: /1 failed/ }).click();
    await expect.poll(() => nav.getByRole('button', { name: /^Node / }).allTextContents()).toHaveLength(1);
    expect(await nav.getByRole('button', { name: /^Node / }).getAttribute('aria-label')).toBe('Node worker-3: Permission denied (publickey).');
    await nav.getByRole('group', { name: 'Nodes by state' }).getByRole('button', { name: /1 failed/ }).click();
    await nav.getByRole('searchbox', { name: 'Search nodes' }).fill('gpu');
    await expect.poll(() => nav.getByRole('button', { name: /^Node / }).count()).toBe(2);
    await nav.getByRole('searchbox', { name: 'Search nodes' }).fill('nothing-like-it');
    await nav.getByText('No node matches.').waitFor();
    await page.close();
  });

  it('offers connect for a node that is down, edit for one with settings, and asks the window for the rest', async () => {
    const { page } = await pages.open();
    const nav = page.getByRole('navigation', { name: 'Nodes' });
    await nav.getByRole('button', { name: 'Connect gpu-2' }).click();
    await nav.getByRole('button', { name: 'Disconnect worker-1' }).click();
    await nav.getByRole('button', { name: 'Edit gpu-1' }).click();
    // A file has no settings to edit and no connection.
    expect(await nav.getByRole('button', { name: 'Edit f1' }).count()).toBe(0);
    expect(await nav.getByRole('button', { name: 'Connect f1' }).count()).toBe(0);
    await nav.getByRole('button', { name: 'Include the group gpu' }).click();
    await nav.getByRole('button', { name: /^Node worker-2: / }).click();
    await nav.getByRole('checkbox', { name: 'Include worker-3' }).click();
    expect(await recordedCalls(page)).toEqual([
      ['connect', 'g2'],
      ['disconnect', 'w1'],
      ['edit', 'g1'],
      ['selectMany', ['g1', 'g2']],
      ['select', 'w2'],
      ['toggle', 'w3'],
    ]);
    await page.close();
  });

  it('drops a removed node once the model has it removed', async () => {
    const { page, errors } = await pages.open();
    const nav = page.getByRole('navigation', { name: 'Nodes' });
    await nav.getByRole('button', { name: 'Remove worker-2' }).click();
    await nav.getByRole('button', { name: /^Node worker-2: / }).waitFor({ state: 'detached' });
    expect(await nav.getByRole('button', { name: /^workers, / }).getAttribute('aria-label')).toBe('workers, 2 nodes: 1 live, 1 failed');
    expect(errors).toEqual([]);
    await page.close();
  });

  describe('with a thousand nodes', () => {
    /** The node rows in the page now: the list is virtual, so only those near the screen. */
    const renderedNodes = (page: Page) => page.locator('.node-item').count();

    it('opens large groups collapsed, counted by state, and renders only the rows on screen', async () => {
      const { page, errors } = await pages.open('case=fleet');
      const nav = page.getByRole('navigation', { name: 'Nodes' });
      const toggle = (group: string) => nav.getByRole('button', { name: new RegExp(`^${group}, `) });
      await toggle('edge').waitFor();
      expect(await toggle('edge').getAttribute('aria-label')).toBe('edge, 200 nodes: 184 live, 12 connecting, 4 failed');
      expect(await toggle('edge').getAttribute('aria-expanded')).toBe('false');
      expect(await toggle('workers-a').getAttribute('aria-expanded')).toBe('false');
      // A small group stays open.
      expect(await toggle('infra').getAttribute('aria-expanded')).toBe('true');
      expect(await toggle('infra').getAttribute('aria-label')).toBe('infra, 10 nodes: 7 live, 2 connecting, 1 failed');
      expect(await nav.getByRole('group', { name: 'Nodes by state' }).textContent()).toBe('918 live61 connecting21 failed');
      expect(await renderedNodes(page)).toBeLessThan(60);
      await toggle('workers-a').click();
      await nav.getByRole('button', { name: 'Node workers-a-001: Connecting' }).waitFor();
      expect(await renderedNodes(page)).toBeLessThan(60);
      // Scrolled to the end, the last node is there, still among few rows rendered.
      await nav.locator('.node-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
      await expect.poll(() => nav.getByRole('button', { name: /^workers-b, / }).count()).toBe(1);
      await toggle('workers-b').click();
      await nav.locator('.node-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
      await nav.getByRole('button', { name: /^Node workers-b-300: / }).waitFor();
      expect(await renderedNodes(page)).toBeLessThan(60);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('finds a node by name from the f key, opening its group, and opens it with Enter', async () => {
      const { page, errors } = await pages.open('case=fleet');
      const nav = page.getByRole('navigation', { name: 'Nodes' });
      await nav.getByRole('button', { name: /^edge, / }).waitFor();
      await page.keyboard.press('f');
      const search = nav.getByRole('searchbox', { name: 'Search nodes' });
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('edge-042');
      await nav.getByRole('button', { name: 'Node edge-042: Live' }).waitFor();
      expect(await nav.getByRole('button', { name: /^Node / }).count()).toBe(1);
      expect(await nav.getByRole('button', { name: /^edge, / }).getAttribute('aria-label')).toBe('edge, 1 node: 1 live');
      await page.keyboard.press('Enter');
      // The failed nodes of every group, from the state count.
      await search.fill('');
      await nav.getByRole('group', { name: 'Nodes by state' }).getByRole('button', { name: /21 failed/ }).click();
      await expect.poll(() => nav.getByRole('button', { name: /^gpu, / }).getAttribute('aria-label')).toBe('gpu, 1 node: 1 failed');
      expect(await recordedCalls(page)).toEqual([['select', 'n-191']]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('is drawn in a window of 1440x900 and of 1024x768 (e2e/artifacts/nodes-sidebar-*.png)', async () => {
      const { page, errors } = await pages.open('case=fleet');
      const nav = page.getByRole('navigation', { name: 'Nodes' });
      await nav.getByRole('button', { name: /^edge, / }).waitFor();
      await nav.getByRole('button', { name: /^gpu, / }).click();
      mkdirSync(new URL('../../e2e/artifacts/', import.meta.url), { recursive: true });
      for (const [width, height] of [
        [1440, 900],
        [1024, 768],
      ] as const) {
        await page.setViewportSize({ width, height });
        await nav.getByRole('button', { name: /^Node gpu-001: / }).waitFor();
        await page.screenshot({ path: new URL(`../../e2e/artifacts/nodes-sidebar-${width}x${height}.png`, import.meta.url).pathname });
      }
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
