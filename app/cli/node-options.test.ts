import { describe, expect, it } from 'vitest';
import { parseNodeArgs } from './node-options';
import { UsageError } from './usage-error';

const parse = (...argv: string[]) => parseNodeArgs(['node-1', ...argv], ['table', 'json']);

describe('REST options of the node commands', () => {
  it('reads credentials from files here or, with node:, from paths on the node', async () => {
    const o = await parse('--api', 'rest', '--client-cert', 'node:/var/lib/kubelet/pki/kubelet-client-current.pem', '--client-key', '/home/me/k.key', '--kubelet-port', '10250', '--poll-interval', '0.5');
    expect(o.api).toBe('rest');
    expect(o.rest).toEqual({
      readOnly: false,
      port: 10250,
      pollIntervalMs: 500,
      credentials: { clientCert: { nodePath: '/var/lib/kubelet/pki/kubelet-client-current.pem' }, clientKey: { file: '/home/me/k.key' } },
    });
    expect((await parse('--token-file', 't')).rest.credentials).toEqual({ token: { file: 't' } });
  });

  it.each([
    [['--token-file', 't', '--client-cert', 'c', '--client-key', 'k'], 'not both'],
    [['--client-cert', 'c'], 'go together'],
    [['--read-only', '--token-file', 't'], 'takes no credentials'],
    [['--kubelet-port', '70000'], 'bad --kubelet-port'],
    [['--poll-interval', '0'], 'bad --poll-interval'],
    [['--call-timeout', '0'], 'bad --call-timeout'],
    [['--call-timeout', 'soon'], 'bad --call-timeout'],
    [['--tcp-bridge-command', 'nc localhost 10250'], 'must contain {port}'],
    [['--api', 'rest', '--local', '/tmp/s.sock'], 'reached over SSH'],
  ])('refuses %j', async (argv, message) => {
    await expect(parse(...argv)).rejects.toThrow(UsageError);
    await expect(parse(...argv)).rejects.toThrow(message);
  });
});

describe('--api: one vocabulary with the app', () => {
  it('takes pods, rest and auto as the app does, and the older shape spellings as the Pods API in that shape', async () => {
    expect(await parse()).toMatchObject({ api: 'auto' });
    expect((await parse()).shape).toBeUndefined();
    expect(await parse('--api', 'pods')).toMatchObject({ api: 'pods' });
    expect(await parse('--api', 'shipped')).toMatchObject({ api: 'pods', shape: 'shipped' });
    expect(await parse('--api', 'documented')).toMatchObject({ api: 'pods', shape: 'documented' });
    await expect(parse('--api', 'v2')).rejects.toThrow('use pods, rest or auto');
  });
});

describe('-v: how verbose, as ssh counts it', () => {
  it.each([
    [[], { verbose: false, sshDebug: false }],
    [['-v'], { verbose: true, sshDebug: false }],
    [['--verbose'], { verbose: true, sshDebug: false }],
    [['-vv'], { verbose: true, sshDebug: true }],
    [['-v', '-v'], { verbose: true, sshDebug: true }],
    [['-vvv'], { verbose: true, sshDebug: true }],
  ])('%j: Nodescope says how the node is reached from one, ssh its debug lines from two', async (argv, levels) => {
    expect(await parse(...argv)).toMatchObject(levels);
  });
});
