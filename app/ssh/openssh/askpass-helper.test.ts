import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../e2e/harness/run-command';
import type { SshPrompter } from '../ssh-prompter';
import { ASKPASS_FLAG, askpassScriptFromArgv, writeAskpassHelper } from './askpass-helper';
import { startAskpass } from './askpass-server';

const dir = mkdtempSync(join(tmpdir(), 'ns-askpass-helper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the askpass helper program', () => {
  it('runs under Node as node, under a development Electron as Node, and in the packaged app through its main process', () => {
    const wrapper = (runtime: { electron: boolean; defaultApp: boolean }) => {
      const sub = mkdtempSync(join(dir, 'w-'));
      return readFileSync(writeAskpassHelper(sub, "/opt/Node's app/bin", runtime), 'utf8').split('\n')[1];
    };
    expect(wrapper({ electron: false, defaultApp: false })).toMatch(/^exec '\/opt\/Node'\\''s app\/bin' '.*askpass-helper\.cjs' "\$@"$/);
    expect(wrapper({ electron: true, defaultApp: true })).toMatch(/^ELECTRON_RUN_AS_NODE=1 exec '\/opt\/Node'\\''s app\/bin' '.*askpass-helper\.cjs' "\$@"$/);
    expect(wrapper({ electron: true, defaultApp: false })).toMatch(new RegExp(`^exec '/opt/Node'\\\\''s app/bin' ${ASKPASS_FLAG} '.*askpass-helper\\.cjs' "\\$@"$`));
    expect(askpassScriptFromArgv(['/app', ASKPASS_FLAG, '/run/x/askpass-helper.cjs', "root@h's password: "])).toBe('/run/x/askpass-helper.cjs');
    expect(askpassScriptFromArgv(['/app', '--enable-logging'])).toBeUndefined();
  });

  it('answers through a stand-in for the packaged app, which requires the helper as main.ts does', async () => {
    // What main.ts does with the flag, in a Node program standing in for the app binary.
    const app = join(dir, 'app-binary');
    writeFileSync(app, `#!${process.execPath}\nconst i = process.argv.indexOf('${ASKPASS_FLAG}');\nif (i >= 0) require(process.argv[i + 1]);\n`, { mode: 0o700 });
    const prompter: SshPrompter = {
      hostKey: async () => 'refuse',
      passphrase: async () => null,
      keyboardInteractive: async (q) => (q.prompts[0]?.prompt === "core@node-1's password: " ? ['s3cret'] : null),
    };
    const askpass = await startAskpass(prompter, { label: 'core@node-1' });
    try {
      const program = writeAskpassHelper(mkdtempSync(join(dir, 'p-')), app, { electron: true, defaultApp: false });
      const r = await runCommand(program, ["core@node-1's password: "], { env: { ...process.env, ...askpass.env } });
      expect(r).toMatchObject({ code: 0, stdout: 's3cret\n' });
    } finally {
      await askpass.close();
    }
  });
});
