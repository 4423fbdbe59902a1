// Credential, CA and pins files are read like every file the user points Nodescope at: only a regular
// file, within a limit. A FIFO used to hang the command, /dev/zero to read ~600 MB and fail with
// "Invalid string length"; now each is refused at once, naming what the path is and what to give.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../cli/cli-failure';
import { EXIT } from '../cli/exit-codes';
import { KubeletError } from '../kubelet/kubelet-error';
import { scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { checkPin, rememberPin } from './kubelet-certificate-pins';
import { openKubeletRest } from './kubelet-rest-connection';
import { CredentialError, loadRestCredentials, type RestCredentialSources } from './rest-credentials';

let dir: string;
let fifo: string;
let big: string;
const noNode = () => Promise.reject(new Error('no node in this test'));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-credentials-'));
  fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  big = join(dir, 'big');
  await writeFile(big, Buffer.alloc(2 << 20, 0x61));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refused(sources: RestCredentialSources): Promise<CredentialError> {
  const err = await loadRestCredentials(sources, noNode).then(
    () => new Error('the credential was read'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CredentialError);
  expect(exitCodeFor(err)).toBe(EXIT.usage);
  return err as CredentialError;
}

describe('credential files that are not regular files, or too large', () => {
  it('refuses a FIFO as the token file at once instead of waiting for a writer', async () => {
    const err = await refused({ token: { file: fifo } });
    expect(err.message).toBe(`cannot read the token file: ${fifo} is a FIFO (named pipe), not a regular file: Nodescope reads token files only from regular files. Give the path of the file itself.`);
    expect(err.nextStep).toBe('Give the path of the token file itself.');
  });

  it('refuses /dev/zero as the client certificate or key instead of reading without end', async () => {
    const key = join(dir, 'key.pem');
    await writeFile(key, 'not read');
    expect((await refused({ clientCert: { file: '/dev/zero' }, clientKey: { file: key } })).message).toContain('/dev/zero is a character device, not a regular file');
    const cert = join(dir, 'cert.pem');
    await writeFile(cert, 'not read either');
    expect((await refused({ clientCert: { file: cert }, clientKey: { file: fifo } })).message).toContain(`cannot read the client key file: ${fifo} is a FIFO`);
  });

  it('refuses a file larger than 1 MiB, and a folder', async () => {
    expect((await refused({ token: { file: big } })).message).toContain(`${big} is 2.0 MiB: Nodescope reads token files only up to 1.0 MiB`);
    expect((await refused({ token: { file: dir } })).message).toContain(`${dir} is a folder, not a regular file`);
  });

  it('refuses a FIFO as the kubelet CA file before connecting', async () => {
    const err = await openKubeletRest(
      // Never dialled: the CA file is read before anything connects.
      { host: 'node-1', port: 22, user: 'ops', knownHostsFiles: [], strictHostKeyChecking: 'yes', identityFiles: [], proxyJump: [] },
      { prompter: scriptedPrompter({}), pinsFile: join(dir, 'pins'), caFile: fifo },
    ).then(
      () => new Error('connected'),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CredentialError);
    expect((err as Error).message).toBe(`cannot read the kubelet CA file: ${fifo} is a FIFO (named pipe), not a regular file: Nodescope reads kubelet CA files only from regular files. Give the path of the file itself.`);
  });

  it('refuses a FIFO or a device as the pins file, when checking and when remembering a certificate', async () => {
    const fingerprint = Array.from({ length: 32 }, () => 'AB').join(':');
    // One at a time: a second started at once would fail while the first is awaited, unhandled.
    for (const attempt of [() => checkPin(fifo, 'node-1:10250', fingerprint), () => rememberPin('/dev/zero', 'node-1:10250', fingerprint)]) {
      const err = await attempt().then(
        () => new Error('the pins were read'),
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(KubeletError);
      expect((err as KubeletError).message).toMatch(/^cannot (read|update) the kubelet certificate pins in .*: .* is a (FIFO \(named pipe\)|character device), not a regular file/);
      expect((err as KubeletError).nextStep).toContain('--kubelet-pins');
    }
  });
});
