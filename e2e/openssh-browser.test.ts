// A node reached with the user's own ssh (SSH client: OpenSSH in the Add node dialog), in browser mode against
// real components: ssh's passphrase question comes through its askpass helper to the app's prompt dialog.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../app/host/host';
import { startSimulatedKubelet } from '../app/sim/kubelet-server';
import { startSshHarness, type SshHarness } from './harness/ssh-harness';
import { closeUiInChromium, openUiInChromium, type UiInChromium } from './testing/ui-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');
let h: SshHarness;
let work: string;
let inspector: Host;
let ui: UiInChromium;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'ns-e2e-openssh-'));
  h = await startSshHarness({ startKubelet: (socketPath) => startSimulatedKubelet({ socketPath, pods: 12, seed: 9, nodeName: 'worker-ossh' }) });
  // The machine's own ssh setup stays out: no agent, the harness's known_hosts.
  const sshConfig = join(work, 'ssh_config');
  writeFileSync(sshConfig, `Host *\n  IdentityAgent none\n  IdentitiesOnly yes\n  UserKnownHostsFile ${h.knownHosts}\n  GlobalKnownHostsFile /dev/null\n`);
  inspector = await createHost({ mode: 'browser', stateDir: join(work, 'state'), demo: false, sshConfigFile: sshConfig, defaultExportDir: work });
  ui = await openUiInChromium(inspector, join(work, 'chromium'));
}, 180_000);

afterAll(async () => {
  await closeUiInChromium(ui, inspector);
  await h?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a node through OpenSSH in the app', () => {
  it("asks ssh's key passphrase in the prompt dialog, and the node goes live", async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'Add node' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add node' });
    const fill = (label: string, value: string) => dialog.getByLabel(label, { exact: true }).fill(value);
    await fill('Host', h.host);
    await fill('Port', String(h.port));
    await fill('User', h.operator.name);
    await fill('Identity file', h.operator.encryptedKey);
    await dialog.getByRole('radio', { name: /^OpenSSH/ }).check();
    await fill('Pods API socket', h.socketPath);
    await fill('Display name', 'worker-ossh');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();

    const question = page.getByRole('dialog', { name: 'Key passphrase' });
    await question.waitFor();
    await page.screenshot({ path: join(artifacts, 'openssh-passphrase.png') });
    await question.getByLabel(`Passphrase for ${h.operator.encryptedKey}`).fill(h.operator.passphrase);
    await question.getByRole('button', { name: 'Continue' }).click();

    await expect.poll(() => page.getByLabel(/^Node worker-ossh:/).getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/live/i);
    await expect.poll(async () => (await page.getByRole('navigation', { name: 'Nodes' }).textContent()) ?? '').toMatch(/12 pods/);
    // ssh logged in with the key the passphrase opened.
    expect(h.logs()).toMatch(new RegExp(`Accepted publickey for ${h.operator.name} `));
  });
});
