import { describe, expect, it } from 'vitest';
import { componentTestPages } from '../../e2e/testing/component-page';

const pages = componentTestPages(new URL('./App.test-page.tsx', import.meta.url));

describe('the window on a fake app core', () => {
  it('welcomes with the ways to a first source, and shows the demo node once started', async () => {
    const { page, errors } = await pages.open();
    const welcome = page.getByRole('heading', { name: 'Inspect a node’s pods, live' });
    await welcome.waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Start demo node' }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo node (simulated)' }).waitFor();
    await expect.poll(() => page.locator('[role=row][data-uid]').count()).toBe(2);
    expect(await welcome.count()).toBe(0);
    expect(await page.title()).toBe('Demo node (simulated) — Nodescope');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens dropped files as sources and shows the first', async () => {
    const { page, errors } = await pages.open();
    const app = page.locator('.app');
    const files = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['{}'], 'before.json'));
      transfer.items.add(new File(['{}'], 'after.json'));
      return transfer;
    });
    await app.dispatchEvent('dragover', { dataTransfer: files });
    await expect.poll(() => app.getAttribute('class')).toBe('app drop-target');
    await app.dispatchEvent('drop', { dataTransfer: files });
    await page.getByRole('heading', { level: 1, name: 'before.json' }).waitFor();
    await page.getByRole('button', { name: /^Node after\.json:/ }).waitFor();
    expect(await app.getAttribute('class')).toBe('app');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('removes a node with one click and brings it back with Undo, shown again', async () => {
    const { page, errors } = await pages.open();
    await page.getByRole('main').getByRole('button', { name: 'Start demo node' }).click();
    await page.getByRole('button', { name: 'Remove Demo node (simulated)' }).click();
    await page.getByRole('heading', { name: 'Inspect a node’s pods, live' }).waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo node (simulated)' }).waitFor();
    expect(await page.getByRole('button', { name: /^Node Demo node/ }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens the help on ? and the palette on :, closing each with Esc', async () => {
    const { page } = await pages.open();
    await page.getByRole('main').getByRole('button', { name: 'Start demo node' }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo node (simulated)' }).waitFor();
    await page.locator('body').press('?');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('body').press(':');
    await dialog.waitFor();
    await page.keyboard.type('Demo');
    await expect.poll(() => dialog.getByRole('option').first().textContent()).toContain('Demo node (simulated)');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.close();
  });
});
