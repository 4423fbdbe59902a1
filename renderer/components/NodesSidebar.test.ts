import { describe, expect, it } from 'vitest';
import { recordedCalls, componentTestPages } from '../../e2e/testing/component-page';

const pages = componentTestPages(new URL('./NodesSidebar.test-page.tsx', import.meta.url));

describe('NodesSidebar on the fake bridge', () => {
  it('lists the nodes group by group, counting the ones that show their pods', async () => {
    const { page, errors } = await pages.open();
    const nav = page.getByRole('navigation', { name: 'Nodes' });
    await expect.poll(() => nav.getByRole('list', { name: 'Group workers' }).getByRole('button', { name: /^Node / }).count()).toBe(3);
    expect(await nav.getByRole('button', { name: /^gpu \d/ }).textContent()).toContain('1/2');
    expect(await nav.getByRole('button', { name: /^workers \d/ }).textContent()).toContain('2/3');
    // Files have a group of their own, and a file is never live but shows its pods.
    expect(await nav.getByRole('button', { name: /^Files \d/ }).textContent()).toContain('1/1');
    expect(await nav.getByRole('button', { name: 'Node worker-3: Permission denied (publickey).' }).getAttribute('aria-current')).toBeNull();
    expect(await nav.getByRole('button', { name: /^Node worker-1: / }).getAttribute('aria-current')).toBe('true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows only the nodes of a state when its count is pressed, and searches by name', async () => {
    const { page } = await pages.open();
    const nav = page.getByRole('navigation', { name: 'Nodes' });
    await nav.getByRole('button', { name: /1 error/ }).click();
    await expect.poll(() => nav.getByRole('button', { name: /^Node / }).allTextContents()).toHaveLength(1);
    expect(await nav.getByRole('button', { name: /^Node / }).getAttribute('aria-label')).toBe('Node worker-3: Permission denied (publickey).');
    await nav.getByRole('button', { name: /1 error/ }).click();
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
    expect(await nav.getByRole('button', { name: /^workers \d/ }).textContent()).toContain('1/2');
    expect(errors).toEqual([]);
    await page.close();
  });
});
