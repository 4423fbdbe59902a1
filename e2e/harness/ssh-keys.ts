import { readFile } from 'node:fs/promises';
import { runChecked } from './run-command';

export async function generateKey(path: string, comment: string, passphrase = '', type: 'ed25519' | 'rsa' | 'ecdsa' = 'ed25519'): Promise<void> {
  await runChecked('ssh-keygen', ['-q', '-t', type, '-N', passphrase, '-C', comment, '-f', path]);
}

export async function publicKeyLine(privateKeyPath: string): Promise<string> {
  const [type, blob] = (await readFile(`${privateKeyPath}.pub`, 'utf8')).trim().split(/\s+/);
  return `${type} ${blob}`;
}
