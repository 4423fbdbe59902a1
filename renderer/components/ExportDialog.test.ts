import { describe, expect, it } from 'vitest';
import { componentTestPages, recordedCalls } from '../../e2e/testing/component-page';

/** ExportDialog: the export is a job, with its progress shown and Cancel or Escape stopping it in the host. */
const pages = componentTestPages(new URL('./ExportDialog.test-page.tsx', import.meta.url));

async function startExport(query = '') {
  const { page, errors } = await pages.open(query);
  const dialog = page.getByRole('dialog', { name: 'Export pods' });
  await expect.poll(() => dialog.getByRole('textbox', { name: 'Export file path' }).inputValue()).toMatch(/^\/tmp\/.*pods\.json$/);
  await dialog.getByRole('button', { name: 'Export 40 pods' }).click();
  const status = dialog.getByRole('status');
  await expect.poll(() => status.textContent()).toBe('Writing 12 of 40 pods…');
  expect(await dialog.getByRole('progressbar', { name: 'Export progress' }).getAttribute('value')).toBe('12');
  return { page, dialog, errors };
}

describe('the export dialog', () => {
  it('shows the pods written of all, and its Cancel button stops the export in the host, the dialog staying open', async () => {
    const { page, dialog, errors } = await startExport();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => recordedCalls(page)).toEqual([['host cancelled']]);
    await dialog.getByText('Export cancelled: no file was written.').waitFor();
    expect(await dialog.getByRole('progressbar').count()).toBe(0);
    // Nothing under way any more: Cancel closes the dialog.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => recordedCalls(page)).toEqual([['host cancelled'], ['close']]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('stops the export on Escape', async () => {
    const { page, dialog, errors } = await startExport();
    await page.keyboard.press('Escape');
    await expect.poll(() => recordedCalls(page)).toEqual([['host cancelled']]);
    await dialog.getByText('Export cancelled: no file was written.').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says where the file went once the export finishes', async () => {
    const { page, dialog, errors } = await startExport();
    await page.evaluate(() => window.finishExport?.());
    await expect.poll(() => dialog.getByRole('status').textContent()).toMatch(/^Saved 40 pods \(4(\.0)? KB\) to \/tmp\/.*pods\.json$/);
    expect(await dialog.getByRole('button', { name: 'Done' }).count()).toBe(1);
    expect(await recordedCalls(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
