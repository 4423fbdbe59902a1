import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSshHost } from '../ssh-config';
import { localAccount } from '../ssh-config-tokens';
import { SSH_G_CASES, type SshGCase } from './testing/ssh-g-cases';

/**
 * The built-in config reader against `ssh -G` as the oracle. What ssh 9.2 printed for each generated config
 * is kept in testdata/ssh-g (UPDATE_SSH_G_ORACLE=1 rewrites it from the machine's ssh), with this machine's
 * particulars replaced: @DIR@ (where the configs were written), @HOME@, @LOCALUSER@ and @CONNHASH@ (%C, a
 * SHA-1 of the local host name, HostName, Port and User). The comparison feeds those files to the
 * resolver's ssh -G path through a stand-in `ssh`, so it needs no ssh; a second test checks the files are
 * what ssh prints now.
 */
const ORACLE = join(import.meta.dirname, 'testdata', 'ssh-g');
const UPDATE = process.env.UPDATE_SSH_G_ORACLE === '1';
const root = mkdtempSync(join(tmpdir(), 'nodescope-ssh-g-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const account = localAccount();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The local user name as a whole word of a path or value (`kh_root` counts, `rooted` does not). */
const userWord = new RegExp(`(?<![A-Za-z0-9])${escape(account.user)}(?![A-Za-z0-9])`, 'g');

function materialize(c: SshGCase): string {
  const dir = join(root, c.name);
  for (const [path, text] of Object.entries(c.files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text.replaceAll('@DIR@', dir), { mode: 0o600 });
  }
  return dir;
}

const valueOf = (text: string, key: string) => new RegExp(`^${key} (.*)$`, 'm').exec(text)?.[1] ?? '';
const connHash = (text: string) => createHash('sha1').update(`${hostname()}${valueOf(text, 'hostname')}${valueOf(text, 'port')}${valueOf(text, 'user')}`).digest('hex');

function normalize(text: string, dir: string): string {
  const hash = connHash(text);
  return text
    .replaceAll(hash, '@CONNHASH@')
    .replaceAll(dir, '@DIR@')
    .replace(new RegExp(`${escape(account.home)}(?=/|\\s|$)`, 'gm'), '@HOME@')
    .replace(userWord, '@LOCALUSER@');
}

function denormalize(text: string, dir: string): string {
  const plain = text.replaceAll('@DIR@', dir).replaceAll('@HOME@', account.home).replaceAll('@LOCALUSER@', account.user);
  return plain.replaceAll('@CONNHASH@', connHash(plain));
}

const oracleFile = (c: SshGCase, destination: string) => join(ORACLE, `${c.name}--${destination.replace(/[^A-Za-z0-9.-]/g, '_')}.txt`);

describe('the built-in ssh config reader against ssh -G (expected files from OpenSSH 9.2)', () => {
  for (const c of SSH_G_CASES) {
    for (const destination of c.destinations) {
      it(`${c.name}: ${destination}`, async () => {
        const dir = materialize(c);
        const configFile = join(dir, 'config');
        const printed = denormalize(readFileSync(oracleFile(c, destination), 'utf8'), dir);
        // Stands in for ssh: prints what ssh -G printed for this config and destination.
        const printedFile = join(dir, `printed-${destination.replace(/\W/g, '_')}`);
        const fakeSsh = join(dir, `ssh-${destination.replace(/\W/g, '_')}`);
        writeFileSync(printedFile, printed);
        writeFileSync(fakeSsh, `#!/bin/sh\nexec cat '${printedFile}'\n`, { mode: 0o700 });
        const oracle = await resolveSshHost(destination, { configFile }, { evaluator: 'openssh', sshBinary: fakeSsh });
        const builtin = resolveSshHost(destination, { configFile }, { evaluator: 'builtin' });
        if (c.builtinRefuses) {
          await expect(builtin).rejects.toThrow(c.builtinRefuses);
          return;
        }
        expect({ ...(await builtin), source: 'either' }).toEqual({ ...oracle, source: 'either' });
      });
    }
  }
});

describe('the expected files are what this machine\'s ssh -G prints', () => {
  for (const c of SSH_G_CASES) {
    it(`${c.name}: ${c.destinations.join(', ')}`, () => {
      const dir = materialize(c);
      for (const destination of c.destinations) {
        const printed = execFileSync('ssh', ['-G', '-F', join(dir, 'config'), '--', destination], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        const text = normalize(printed, dir);
        if (UPDATE) {
          mkdirSync(ORACLE, { recursive: true });
          writeFileSync(oracleFile(c, destination), text);
        }
        expect(text, destination).toBe(readFileSync(oracleFile(c, destination), 'utf8'));
      }
    });
  }
});
