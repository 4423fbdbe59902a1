import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { componentTestPages } from '../../e2e/testing/component-page';

/** NodeInfoPanel: the node's context, part by part, as node.info answers it on the fake bridge. */
const pages = componentTestPages(new URL('./NodeInfoPanel.test-page.tsx', import.meta.url));

describe('the node info panel on the fake bridge', () => {
  it('opens with i and shows each part read with where from, or not read with why, never blank', async () => {
    const { page, errors } = await pages.open('case=read');
    await page.getByRole('button', { name: 'Node info' }).waitFor();
    await page.keyboard.press('i');
    const dialog = page.getByRole('dialog', { name: 'Node info: worker-1' });
    const part = (name: string) => dialog.getByRole('region', { name });
    await expect.poll(() => part('Kubelet version').textContent()).toBe('Kubelet version readFrom /usr/bin/kubelet --versionv1.37.1');
    expect(await part('Kubelet health').textContent()).toBe(
      'Kubelet health not readNot read: connect ECONNREFUSED 127.0.0.1:10248 Is the kubelet running? Its healthzPort may be set elsewhere.',
    );
    expect(await part('Configuration').getByRole('note').textContent()).toBe('Not read: cat /var/lib/kubelet/config.yaml: Permission denied Tick “Use sudo” in the node’s settings.');
    // Absent facts are left out, not shown blank.
    expect(await part('Kubelet process').locator('dt').allTextContents()).toEqual(['PID', 'Binary', 'Config file']);
    expect(await part('Feature gates').textContent()).toContain('PodsAPI: on (PodsAPI=true in --feature-gates)');
    expect(await part('Container runtime').getByRole('note').textContent()).toBe('Not read: crictl: not found');
    expect(await part('Kubelet journal').textContent()).toContain('Unit kubelet: loaded, active, running  Follow2026-11-27T21:00:00+0000 kubelet Started kubelet');
    expect(await part("Runtime containers against the kubelet's pods").getByRole('note').textContent()).toBe('Not read: crictl ps was not read (crictl: not found)');
    mkdirSync(new URL('../../e2e/artifacts/', import.meta.url), { recursive: true });
    await page.screenshot({ path: new URL('../../e2e/artifacts/node-info-panel.png', import.meta.url).pathname });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("follows the kubelet's journal while Follow is on, and stops following when it is turned off or the panel closes", async () => {
    const { page, errors } = await pages.open('case=read');
    await page.getByRole('button', { name: 'Node info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Node info: worker-1' });
    const journal = dialog.getByRole('region', { name: 'Kubelet journal' });
    const lines = journal.getByLabel('Kubelet journal lines');
    const follows = () => page.evaluate(() => {
      const f = (window as unknown as { journalFollows: { started: number; cancelled: number } }).journalFollows;
      return { started: f.started, cancelled: f.cancelled };
    });
    const write = (message: string) => page.evaluate((m) => (window as unknown as { journalFollows: { push: (m: string) => void } }).journalFollows.push(m), message);
    await expect.poll(() => lines.textContent()).toBe('2026-11-27T21:00:00+0000 kubelet Started kubelet');
    expect(await follows()).toEqual({ started: 0, cancelled: 0 });

    await journal.getByLabel('Follow').check();
    await expect.poll(follows).toEqual({ started: 1, cancelled: 0 });
    await write('E1127 pod_workers.go:1301] "Error syncing pod, skipping"');
    await expect.poll(() => lines.textContent()).toBe('2026-11-27T21:00:00+0000 kubelet Started kubelet\n2026-11-27T21:00:05+0000 kubelet E1127 pod_workers.go:1301] "Error syncing pod, skipping"');

    // Off: the follow is cancelled, the lines read stay.
    await journal.getByLabel('Follow').uncheck();
    await expect.poll(follows).toEqual({ started: 1, cancelled: 1 });
    expect(await lines.textContent()).toContain('Error syncing pod');
    // On again, then the panel closed: cancelled too.
    await journal.getByLabel('Follow').check();
    await expect.poll(follows).toEqual({ started: 2, cancelled: 1 });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(follows).toEqual({ started: 2, cancelled: 2 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says the configuration is the kubelet's effective one when it came from /configz, with the gates from it", async () => {
    const { page, errors } = await pages.open('case=configz');
    await page.getByRole('button', { name: 'Node info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Node info: worker-1' });
    const config = dialog.getByRole('region', { name: 'Configuration' });
    await expect.poll(() => config.locator('p').allTextContents()).toEqual(['From GET /configz (kubelet REST API)', 'The effective configuration the kubelet runs with.']);
    expect(await dialog.getByRole('region', { name: 'Feature gates' }).textContent()).toContain("PodsAPI: on (PodsAPI=true in the kubelet's feature gates)");
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says why a source without node access has none, and what to open instead', async () => {
    const { page, errors } = await pages.open('case=unavailable');
    await page.getByRole('button', { name: 'Node info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Node info: worker-1' });
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(
      'Node information is not available for this kind of source: Demo is the simulated demo node, which has no node of its own. Open a node over SSH.',
    );
    expect(await dialog.getByRole('region').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
