import { afterEach, describe, expect, it, vi } from 'vitest';
import { WriteRefusedError } from '../fs/atomic-file';
import { KubeletError } from '../kubelet/kubelet-error';
import { CredentialError } from '../kubelet-rest/rest-credentials';
import { LogAccessError } from '../logs/log-file-access';
import { UnsupportedLogFormatError } from '../logs/kubelet-log-writer';
import { FieldMaskError } from '../mask/field-mask-error';
import { PodDecodeError } from '../pod/decode';
import { RecordingWriteError } from '../recording/recording-writer';
import { PodFileError } from '../snapshot/pod-file-error';
import { SshError } from '../ssh/ssh-errors';
import { exitCodeFor, reportFailure } from './cli-failure';
import { EXIT, EXIT_OF_CLASS } from './exit-codes';
import { UsageError } from './usage-error';

function stderrOf(run: () => number): { code: number; text: string } {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const code = run();
  return { code, text: written.join('') };
}

afterEach(() => vi.restoreAllMocks());

describe('the exit-code table', () => {
  it('gives each class of error its own documented exit code', () => {
    expect(EXIT_OF_CLASS).toEqual({ usage: 2, connection: 3, api: 4, data: 5, io: 6, internal: 70 });
  });

  it("reads each error's exit code from its class", () => {
    const podFile = new PodFileError({ file: 'pods.json', problem: 'not-json', detail: 'not JSON', next: 'Give a kubectl get pods -o json file.' });
    const cases: [unknown, number][] = [
      [new UsageError('unknown flag --nope'), EXIT.usage],
      [new CredentialError('cannot read ~/t', 'Give the path of the token file itself.'), EXIT.usage],
      [podFile, EXIT.usage],
      [new FieldMaskError('unknown field "metadata.nme"', 'metadata.nme', 'nme', 9), EXIT.usage],
      [new WriteRefusedError('EEXIST', 'pods.json'), EXIT.usage],
      [new SshError('AUTH_FAILED', 'Authentication failed', 'Load the right key.'), EXIT.connection],
      [new KubeletError('SOCKET_MISSING', 'No kubelet socket', 'Check the path.'), EXIT.connection],
      [new KubeletError('TLS', 'certificate changed', 'Check the pin.'), EXIT.connection],
      [new KubeletError('NOT_FOUND', 'No pod with that UID', 'List the pods.'), EXIT.api],
      [new LogAccessError('Permission denied', 'Add --sudo.', 'PERMISSION'), EXIT.connection],
      [new LogAccessError('not a pod name', 'Give NAMESPACE/NAME.', 'BAD_INPUT'), EXIT.usage],
      [new LogAccessError('no such pod', 'List the pods.', 'NOT_FOUND'), EXIT.api],
      [new PodDecodeError('default/web', 12, 'spec', 'truncated'), EXIT.data],
      [new UnsupportedLogFormatError('not CRI'), EXIT.data],
      [new RecordingWriteError('rec.ndjson', 'no space left', 'Free space.'), EXIT.output],
      [new Error('a bug'), EXIT.internal],
      ['a thrown string', EXIT.internal],
    ];
    for (const [err, code] of cases) expect(exitCodeFor(err), String(err)).toBe(code);
  });
});

describe('reportFailure', () => {
  it('prints the message and the next step from the error, and returns its exit code', () => {
    const out = stderrOf(() => reportFailure('pods', new SshError('AUTH_FAILED', 'Authentication failed for ops@n1:22', 'Load the right key into ssh-agent.')));
    expect(out).toEqual({ code: EXIT.connection, text: 'nodescope pods: Authentication failed for ops@n1:22\n  next step: Load the right key into ssh-agent.\n' });
  });

  it('does not repeat a next step the message already ends with', () => {
    const err = new PodFileError({ file: 'pods.json', problem: 'empty', detail: 'the file is empty', next: 'Export the pods again.' });
    expect(stderrOf(() => reportFailure('pods', err)).text).toBe('nodescope pods: pods.json: the file is empty. Export the pods again.\n');
  });

  it('points a bad command line at --help', () => {
    const out = stderrOf(() => reportFailure('logs', new UsageError('unknown flag --nope'), true));
    expect(out).toEqual({ code: EXIT.usage, text: "nodescope logs: unknown flag --nope\nRun 'nodescope logs --help' for usage.\n" });
  });
});
