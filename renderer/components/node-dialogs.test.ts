import { describe, expect, it } from 'vitest';
import { recordedCalls, componentTestPages } from '../../e2e/testing/component-page';

/** AddNodeDialog, EditNodeDialog and AddManyDialog: the dialogs that change the node list, through the model. */
const pages = componentTestPages(new URL('./node-dialogs.test-page.tsx', import.meta.url));

describe('the node dialogs on the fake bridge', () => {
  it('adds a node picked from the SSH config, bastions last, and the model holds it', async () => {
    const { page, errors } = await pages.open('case=add');
    const dialog = page.getByRole('dialog', { name: 'Add node' });
    const hosts = dialog.getByRole('listbox', { name: 'SSH config hosts' }).getByRole('option');
    await expect.poll(() => hosts.allTextContents()).toHaveLength(3);
    expect((await hosts.allTextContents())[2]).toMatch(/^bastion/);
    expect(await dialog.getByRole('searchbox', { name: 'Search SSH config hosts' }).getAttribute('placeholder')).toBe('Search /etc/nodescope/ssh_config hosts');
    await hosts.filter({ hasText: 'worker-2' }).click();
    await dialog.getByRole('textbox', { name: 'Group', exact: true }).fill('workers');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();
    await expect.poll(() => recordedCalls(page)).toEqual([['added', 'worker-2']]);
    expect(await page.getByRole('list', { name: 'Nodes in the model' }).getByRole('listitem').allTextContents()).toEqual(['worker-2 workers']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses bad input before asking, and shows the app core’s refusal with its next step', async () => {
    const { page } = await pages.open('case=add');
    const dialog = page.getByRole('dialog', { name: 'Add node' });
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill('worker-1');
    await dialog.getByRole('textbox', { name: 'Port', exact: true }).fill('99999');
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Port', exact: true }).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByRole('textbox', { name: 'Port', exact: true }).fill('');
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill('refused');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('A node named refused is already in the list. Give it another display name.');
    expect(await recordedCalls(page)).toEqual([]);
    expect(await page.getByRole('list', { name: 'Nodes in the model' }).getByRole('listitem').count()).toBe(0);
    await page.close();
  });

  it('edits a node in place: prefilled, warned that another host is another machine, saved through the model', async () => {
    const { page, errors } = await pages.open('case=edit');
    const dialog = page.getByRole('dialog', { name: 'Edit node' });
    expect(await dialog.getByRole('textbox', { name: 'Host', exact: true }).inputValue()).toBe('worker-1');
    expect(await dialog.getByRole('textbox', { name: 'Group', exact: true }).inputValue()).toBe('workers');
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill('worker-9');
    await dialog.getByRole('note').filter({ hasText: 'saving clears this node' }).waitFor();
    await dialog.getByRole('button', { name: 'Save and reconnect' }).click();
    await expect.poll(() => recordedCalls(page)).toEqual([['saved', 'Saved worker-9, reconnecting. Its pod history was cleared: the host or port changed, so it is another machine.']]);
    expect(await page.getByRole('list', { name: 'Nodes in the model' }).getByRole('listitem').allTextContents()).toEqual(['worker-9 workers']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('adds every host a pattern names, showing them first, with the group they share', async () => {
    const { page, errors } = await pages.open('case=many');
    const dialog = page.getByRole('dialog', { name: 'Add several nodes' });
    await dialog.getByRole('textbox', { name: 'Hosts or patterns, one per line' }).fill('worker-*');
    await expect.poll(() => dialog.getByRole('list', { name: 'Hosts that will be added' }).getByRole('listitem').allTextContents()).toEqual(['worker-1', 'worker-2']);
    await dialog.getByRole('textbox', { name: 'Group', exact: true }).fill('pool-a');
    await dialog.getByRole('button', { name: 'Add 2 nodes' }).click();
    await expect.poll(() => recordedCalls(page)).toEqual([['added', ['worker-1', 'worker-2']]]);
    expect(await page.getByRole('list', { name: 'Nodes in the model' }).getByRole('listitem').allTextContents()).toEqual(['worker-1 pool-a', 'worker-2 pool-a']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
