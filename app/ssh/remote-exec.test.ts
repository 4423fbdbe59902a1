import { Duplex, PassThrough } from 'node:stream';
import type { Client, ClientChannel } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { onExit, openExec, runRemote } from './remote-exec';

/**
 * A client whose command ends within the read that starts it, as a short command does on a busy machine: ssh2
 * then emits the channel's data, exit status and end before the opener's promise hands the channel on.
 */
function clientEndingAtOnce(output: Buffer[], exitCode: number): Client {
  return {
    exec(_command: string, _options: unknown, callback: (err: Error | undefined, ch: ClientChannel) => void) {
      const ch = new Duplex({ read() {}, write(_c, _e, done) { done(); } }) as unknown as ClientChannel & Duplex;
      (ch as unknown as { stderr: PassThrough }).stderr = new PassThrough();
      ch.once('end', () => setImmediate(() => ch.emit('close')));
      callback(undefined, ch);
      for (const chunk of output) ch.push(chunk);
      ch.emit('exit', exitCode);
      ch.push(null);
    },
  } as unknown as Client;
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

describe('onExit', () => {
  it('tells the exit status to a listener added after it came', async () => {
    const ch = await openExec(clientEndingAtOnce([], 7), 'exit 7');
    const codes: (number | null)[] = [];
    onExit(ch, (c) => codes.push(c));
    expect(codes).toEqual([7]);
  });
});
