import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * OpenSSH's bcrypt KDF costs ~300 ms of synchronous CPU per key (pure JS). Run on the main
 * thread it would freeze the Electron window and stall every SSH keepalive, so it runs in a
 * short-lived worker. The worker body is inline source so it survives bundling and needs no
 * TypeScript loader; it only calls the same bcrypt-pbkdf copy that ssh2 itself uses.
 */
const require = createRequire(import.meta.url);
const bcryptPbkdfPath = createRequire(require.resolve('ssh2')).resolve('bcrypt-pbkdf');

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pbkdf } = require(workerData.modulePath);
const { passphrase, salt, rounds, length } = workerData;
const out = new Uint8Array(length);
const rc = pbkdf(passphrase, passphrase.length, salt, salt.length, out, length, rounds);
parentPort.postMessage(rc === 0 ? { key: out } : { error: 'bcrypt_pbkdf failed with code ' + rc });
`;

export function bcryptKdfInWorker(passphrase: Buffer, salt: Buffer, rounds: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { modulePath: bcryptPbkdfPath, passphrase, salt, rounds, length },
    });
    worker.once('message', (msg: { key?: Uint8Array; error?: string }) => {
      if (msg.key) resolve(Buffer.from(msg.key));
      else reject(new Error(msg.error ?? 'bcrypt_pbkdf worker returned nothing'));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bcrypt_pbkdf worker exited with code ${code}`));
    });
  });
}
