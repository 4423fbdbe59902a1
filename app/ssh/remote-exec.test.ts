import { Duplex, PassThrough } from 'node:stream';
import type { Client, ClientChannel } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { runRemote } from './remote-exec';
import { ssh2Channels } from './ssh2-channels';

/**
 * A client whose command ends within the read that starts it, as a short command does on a busy machine: ssh2
 * then emits the channel's data, exit status and end before the opener's promise hands the channel on.
 */
function clientEndingAtOnce(output: Buffer[], exitCode: number) {
  return ssh2Channels({
    exec(_command: string, _options: unknown, callback: (err: Error | undefined, ch: ClientChannel) => void) {
      const ch = new Duplex({ read() {}, write(_c, _e, done) { done(); } }) as unknown as ClientChannel & Duplex;
      (ch as unknown as { stderr: PassThrough }).stderr = new PassThrough();
      ch.once('end', () => setImmediate(() => ch.emit('close')));
      callback(undefined, ch);
      for (const chunk of output) ch.push(chunk);
      ch.emit('exit', exitCode);
      ch.push(null);
    },
  } as unknown as Client);
}

describe('runRemote', () => {
  it("keeps the exit status of a command that ended in the same read that started it (it came back as null: 'no exit status')", async () => {
    const r = await runRemote(clientEndingAtOnce([Buffer.from('ok\n')], 3), 'true');
    expect(r).toEqual({ stdout: 'ok\n', stderr: '', code: 3 });
  });

  it('decodes a character split between two packets as one character', async () => {
    const e = Buffer.from('é');
    const r = await runRemote(clientEndingAtOnce([e.subarray(0, 1), e.subarray(1)], 0), 'printf é');
    expect(r.stdout).toBe('é');
  });
});

describe('ssh2 exec channel', () => {
  it('keeps the exit status that came before anyone listened', async () => {
    const ch = await clientEndingAtOnce([], 7).exec('exit 7');
    expect(await ch.exit).toBe(7);
  });
});
