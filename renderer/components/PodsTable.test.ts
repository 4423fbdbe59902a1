import { describe, expect, it } from 'vitest';
import { recordedCalls, componentTestPages, type ComponentPages } from '../../e2e/testing/component-page';

const pages = componentTestPages(new URL('./PodsTable.test-page.tsx', import.meta.url));

const names = (page: Awaited<ReturnType<ComponentPages['open']>>['page']) => page.locator('[role=row][data-uid] .c-name').allTextContents();

describe('PodsTable on the fake bridge', () => {
  it('shows the node’s pods sorted, and sorts by a column header, descending on a second press', async () => {
    const { page, errors } = await pages.open();
    await expect.poll(() => page.locator('[role=row][data-uid]').count()).toBe(5);
    expect(await page.locator('.pods-foot').textContent()).toBe('5 pods');
    // By namespace first: kube-system, search, shop.
    expect((await page.locator('[role=row][data-uid] .c-ns').allTextContents())[0]).toBe('kube-system');
    await page.getByRole('button', { name: 'Sort by Restarts' }).click();
    await page.getByRole('button', { name: 'Sort by Restarts' }).click();
    expect(await page.getByRole('columnheader', { name: 'Sort by Restarts' }).getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => names(page).then((n) => n.slice(0, 2))).toEqual(['cart-2', 'cart-1']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('selects a row on click and opens it on a double click or Enter', async () => {
    const { page } = await pages.open();
    const row = page.locator('[role=row][data-uid=e]');
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.locator('[role=row][data-uid=a]').dblclick();
    await expect.poll(() => recordedCalls(page)).toEqual(expect.arrayContaining([['select', 'e'], ['open', 'e'], ['open', 'a']]));
    await page.close();
  });

  it('follows the pod batches the bridge brings: a new pod shows, a removed one goes', async () => {
    const { page } = await pages.open();
    await expect.poll(() => page.locator('[role=row][data-uid]').count()).toBe(5);
    await page.evaluate(() => {
      const row = { namespace: 'shop', name: 'checkout-7', phase: 'Running', status: 'Running', ready: 1, total: 1, restarts: 0, createdAt: '2026-01-01T00:00:00Z', podIP: '10.0.0.9', node: 'worker-1', ownerKind: 'ReplicaSet', ownerName: 'checkout', isStatic: false, labels: {}, deleting: false };
      window.pushPods({ nodeId: 'n1', seq: 2, reset: false, upserts: [{ uid: 'f', ...row }], removals: ['b'] });
    });
    await expect.poll(() => names(page).then((n) => [...n].sort())).toEqual(['cart-1', 'checkout-7', 'etcd-worker-1', 'indexer-0', 'kube-proxy-x1']);
    expect(await page.locator('.pods-foot').textContent()).toBe('5 pods');
    await page.close();
  });

  it('filters with the filter language and says when nothing matches', async () => {
    const filtered = await pages.open(`filter=${encodeURIComponent('ns:kube-system is:static')}`);
    await expect.poll(() => names(filtered.page)).toEqual(['etcd-worker-1']);
    expect(await filtered.page.locator('.pods-foot').textContent()).toBe('1 of 5 pods');
    await filtered.page.close();
    const none = await pages.open('filter=no-pod-is-named-so');
    await none.page.getByText('No pod matches the filter.').waitFor();
    await none.page.close();
  });
});
