import { describe, expect, it } from 'vitest';
import { classifyAskpassPrompt } from './askpass-prompt';

// Texts as OpenSSH 9.2 formats them (sshconnect.c, sshconnect2.c, mux.c, ssh-sk-client / ssh-pkcs11.c);
// the common ones are also exercised through a real ssh in askpass-server.test.ts.
describe('classifyAskpassPrompt', () => {
  it('reads host, port, key type and fingerprint of a new host key, on port 22 and others', () => {
    const text = (host: string) =>
      `The authenticity of host '${host} (${host})' can't be established.\nED25519 key fingerprint is SHA256:abcDEF+/0123456789abcdefghijklmnopqrstuvwxyz.\n` +
      'This key is not known by any other names.\nAre you sure you want to continue connecting (yes/no/[fingerprint])? ';
    expect(classifyAskpassPrompt(text('[127.0.0.1]:2222'), undefined)).toMatchObject({
      kind: 'hostKey', host: '127.0.0.1', port: 2222, keyType: 'ED25519', fingerprint: 'SHA256:abcDEF+/0123456789abcdefghijklmnopqrstuvwxyz',
    });
    expect(classifyAskpassPrompt(text('node-1.example'), undefined)).toMatchObject({ kind: 'hostKey', host: 'node-1.example', port: 22 });
  });

  it('keeps the CheckHostIP warning a yes/no question in ssh\'s words, not a new host key', () => {
    const text = "Warning: the ECDSA host key for 'node-1' differs from the key for the IP address '10.0.0.5'\nOffending key for IP in /root/.ssh/known_hosts:3\nAre you sure you want to continue connecting (yes/no)? ";
    expect(classifyAskpassPrompt(text, undefined)).toEqual({ kind: 'confirm', text });
  });

  it('tells passphrases, passwords, PINs and ssh\'s own confirmations apart', () => {
    expect(classifyAskpassPrompt("Enter passphrase for key '/home/o p/.ssh/id_ed25519': ", undefined)).toEqual({ kind: 'passphrase', keyPath: '/home/o p/.ssh/id_ed25519' });
    expect(classifyAskpassPrompt("core@node-1's password: ", undefined)).toEqual({ kind: 'password', user: 'core', host: 'node-1' });
    expect(classifyAskpassPrompt('Enter PIN for ED25519-SK key /root/.ssh/id_ed25519_sk: ', undefined)).toMatchObject({ kind: 'pin' });
    expect(classifyAskpassPrompt('Allow shared connection to node-1? ', 'confirm')).toMatchObject({ kind: 'confirm' });
    expect(classifyAskpassPrompt('Accept updated hostkeys? (yes/no): ', undefined)).toMatchObject({ kind: 'confirm' });
    expect(classifyAskpassPrompt('Confirm user presence for key ED25519-SK SHA256:x', 'none')).toMatchObject({ kind: 'notice' });
    expect(classifyAskpassPrompt("Enter core@node-1's old password: ", undefined)).toMatchObject({ kind: 'other' });
  });

  it('never takes a server\'s keyboard-interactive text for a local question', () => {
    const spoof = "(core@node-1) Enter passphrase for key '/root/.ssh/id_ed25519': ";
    expect(classifyAskpassPrompt(spoof, undefined)).toEqual({
      kind: 'keyboardInteractive', user: 'core', host: 'node-1', prompt: "Enter passphrase for key '/root/.ssh/id_ed25519': ",
    });
  });
});
