import { describe, expect, it } from 'vitest';
import { recordedCalls, componentTestPages } from '../../e2e/testing/component-page';

const pages = componentTestPages(new URL('./PodDetail.test-page.tsx', import.meta.url));

describe('PodDetail on the fake bridge', () => {
  it('shows the pod’s summary, then its JSON and YAML as tabs', async () => {
    const { page, errors } = await pages.open();
    const detail = page.getByRole('region', { name: 'Pod shop/cart-1' });
    await expect.poll(() => detail.getByRole('region', { name: 'Containers' }).textContent()).toContain('registry.example.internal/shop/cart:1.4.2');
    expect(await detail.getByRole('region', { name: 'Conditions' }).textContent()).toContain('Ready');
    await detail.getByRole('tab', { name: 'JSON' }).click();
    await expect.poll(() => detail.textContent()).toContain('"nodeName": "worker-1"');
    await detail.getByRole('tab', { name: 'YAML' }).click();
    await expect.poll(() => detail.textContent()).toContain('nodeName: worker-1');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('marks a found text in the JSON where it spans a key, its colon and its value, as the count says', async () => {
    const { page } = await pages.open();
    const detail = page.getByRole('region', { name: 'Pod shop/cart-1' });
    await detail.getByRole('tab', { name: 'JSON' }).click();
    await detail.getByRole('searchbox', { name: 'Find in JSON' }).fill('NodeName": "worker');
    await expect.poll(() => detail.locator('.match-count').textContent()).toBe('1/1');
    const line = detail.locator('.json-line', { has: page.locator('mark') });
    expect(await line.count()).toBe(1);
    expect((await line.locator('mark').allTextContents()).join('')).toBe('nodeName": "worker');
    await page.close();
  });

  it('says what changed last and opens the history on it', async () => {
    const { page } = await pages.open();
    const detail = page.getByRole('region', { name: 'Pod shop/cart-1' });
    const note = detail.getByRole('status').filter({ hasText: 'restarts 2 → 3' });
    await note.waitFor();
    await note.getByRole('button', { name: 'See what changed' }).click();
    expect(await detail.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    await page.close();
  });

  it('says which earlier versions the history limits trimmed and which went for the memory budget', async () => {
    const { page } = await pages.open('case=budget');
    const detail = page.getByRole('region', { name: 'Pod shop/cart-1' });
    await detail.getByRole('tab', { name: 'History' }).click();
    await expect
      .poll(() => detail.locator('.history-note').textContent())
      .toContain("2 earlier versions trimmed (keeps 50 per pod) · 3 earlier versions dropped to stay within the app's memory budget (Settings)");
    await page.close();
  });

  it('hands Compare with… and the close to the window', async () => {
    const { page } = await pages.open();
    await page.getByRole('button', { name: 'Compare with…' }).click();
    await page.getByRole('button', { name: 'Close pod detail' }).click();
    expect((await recordedCalls(page)).map(([name]) => name)).toEqual(['compareWith', 'close']);
    await page.close();
  });

  it('opens on the Logs tab when the l key asked, saying why a source has no logs', async () => {
    const { page } = await pages.open('case=logs');
    const detail = page.getByRole('region', { name: 'Pod shop/cart-1' });
    expect(await detail.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
    await detail.getByRole('status').filter({ hasText: 'This test page has no log files.' }).waitFor();
    await page.close();
  });

  it('shows why the pod could not be read, not an empty detail', async () => {
    const { page } = await pages.open('case=missing');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('it was deleted and its history is gone');
    expect(await page.getByText('Loading…').count()).toBe(0);
    await page.close();
  });
});
