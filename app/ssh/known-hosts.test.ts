import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintSha256, keyTypeOfBlob } from './host-key-fingerprint';
import { checkKnownHosts, hostFieldMatches, knownHostsName, parseKnownHosts, readKnownHosts, rememberHostKey } from './known-hosts';

/** Real keys from ssh-keygen: the blob is the base64 field of the .pub file. */
interface RealKey {
  path: string;
  type: string;
  blob: Buffer;
  line: string;
}

let dir: string;
const keys: Record<'ed25519' | 'ed25519b' | 'rsa' | 'ecdsa', RealKey> = {} as never;

function keygen(name: keyof typeof keys, args: string[]): void {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-N', '', '-C', name, '-f', path, ...args]);
  const [type, b64] = readFileSync(`${path}.pub`, 'utf8').trim().split(' ') as [string, string];
  keys[name] = { path, type, blob: Buffer.from(b64, 'base64'), line: `${type} ${b64}` };
}

const sshKeygen = (args: string[]) => execFileSync('ssh-keygen', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nodescope-known-hosts-'));
  keygen('ed25519', ['-t', 'ed25519']);
  keygen('ed25519b', ['-t', 'ed25519']);
  keygen('rsa', ['-t', 'rsa', '-b', '2048']);
  keygen('ecdsa', ['-t', 'ecdsa', '-b', '256']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fingerprints', () => {
  it('match ssh-keygen -lf for every key type', () => {
    for (const k of Object.values(keys)) {
      const printed = sshKeygen(['-lf', `${k.path}.pub`]).split(' ')[1];
      expect(fingerprintSha256(k.blob)).toBe(printed);
      expect(keyTypeOfBlob(k.blob)).toBe(k.type);
    }
  });

  it('reject a blob that is not a key', () => {
    expect(() => keyTypeOfBlob(Buffer.from('nonsense'))).toThrow(/not an SSH public key/);
  });
});

describe('known_hosts matching', () => {
  it('names non-22 ports in brackets, as OpenSSH looks them up', () => {
    expect(knownHostsName('Node-1.Example.com', 22)).toBe('node-1.example.com');
    expect(knownHostsName('127.0.0.1', 2222)).toBe('[127.0.0.1]:2222');
  });

  it('handles comma lists, wildcards, negation and case', () => {
    expect(hostFieldMatches('a.example.com,b.example.com', 'b.example.com')).toBe(true);
    expect(hostFieldMatches('*.example.com', 'NODE.example.com')).toBe(true);
    expect(hostFieldMatches('node-?.example.com', 'node-7.example.com')).toBe(true);
    expect(hostFieldMatches('node-?.example.com', 'node-17.example.com')).toBe(false);
    expect(hostFieldMatches('*.example.com,!bad.example.com', 'bad.example.com')).toBe(false);
    expect(hostFieldMatches('!bad.example.com', 'good.example.com')).toBe(false); // negation alone never matches
    expect(hostFieldMatches('[10.0.0.*]:2222', '[10.0.0.5]:2222')).toBe(true);
    expect(hostFieldMatches('[10.0.0.*]:2222', '10.0.0.5')).toBe(false);
    expect(hostFieldMatches('exa.ple.com', 'exaXple.com')).toBe(false); // '.' is literal
  });

  it('matches entries hashed by ssh-keygen -H, including bracketed ports', () => {
    const file = join(dir, 'hashed_known_hosts');
    writeFileSync(file, `node1.example.com ${keys.ed25519.line}\n[127.0.0.1]:2222 ${keys.rsa.line}\n`);
    sshKeygen(['-H', '-f', file]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('node1');
    const entries = parseKnownHosts(text, file);
    expect(entries.map((e) => e.hosts.startsWith('|1|'))).toEqual([true, true]);
    expect(checkKnownHosts(entries, 'node1.example.com', keys.ed25519.blob).status).toBe('known');
    expect(checkKnownHosts(entries, knownHostsName('127.0.0.1', 2222), keys.rsa.blob).status).toBe('known');
    expect(checkKnownHosts(entries, 'node2.example.com', keys.ed25519.blob).status).toBe('unknown');
  });

  it('reports a changed key with the stored fingerprint, file and line', () => {
    const file = '/etc/example_known_hosts';
    const text = `# comment\n\nother.example.com ${keys.ed25519b.line}\nnode1.example.com ${keys.ed25519b.line} old key\n`;
    const result = checkKnownHosts(parseKnownHosts(text, file), 'node1.example.com', keys.ed25519.blob);
    expect(result).toEqual({
      status: 'changed',
      stored: { keyType: 'ssh-ed25519', fingerprint: fingerprintSha256(keys.ed25519b.blob), file, line: 4 },
    });
  });

  it('accepts when any line holds the key, and treats a key of another type as changed, as ssh does', () => {
    const text = `node1 ${keys.ed25519b.line}\nnode1 ${keys.ed25519.line}\nnode2 ${keys.rsa.line}\n`;
    const entries = parseKnownHosts(text, 'f');
    expect(checkKnownHosts(entries, 'node1', keys.ed25519.blob)).toMatchObject({ status: 'known', entry: { line: 2 } });
    const other = checkKnownHosts(entries, 'node2', keys.ed25519.blob);
    expect(other).toMatchObject({ status: 'changed', stored: { keyType: 'ssh-rsa', line: 3 } });
  });

  it('refuses @revoked keys even when a plain line also lists them', () => {
    const text = `node1 ${keys.ed25519.line}\n@revoked * ${keys.ed25519.line}\n`;
    expect(checkKnownHosts(parseKnownHosts(text, 'f'), 'node1', keys.ed25519.blob)).toMatchObject({ status: 'revoked', entry: { line: 2 } });
  });

  it('reports @cert-authority lines without trusting them', () => {
    const text = `@cert-authority *.example.com ${keys.ecdsa.line}\n`;
    expect(checkKnownHosts(parseKnownHosts(text, 'f'), 'node1.example.com', keys.ed25519.blob)).toMatchObject({
      status: 'unknown',
      certAuthorities: [{ line: 1, keyType: 'ecdsa-sha2-nistp256' }],
    });
  });

  it('skips malformed lines and tolerates CRLF', () => {
    const text = `garbage\r\nnode1 ssh-ed25519 !!!notbase64\r\n@bogus node1 ${keys.rsa.line}\r\nnode1 ${keys.ed25519.line}\r\n`;
    const entries = parseKnownHosts(text, 'f');
    expect(entries.map((e) => e.line)).toEqual([4]);
  });

  it('reads several files, ignoring missing ones but not unreadable ones', async () => {
    const a = join(dir, 'kh_a');
    writeFileSync(a, `node1 ${keys.ed25519.line}\n`);
    const entries = await readKnownHosts([join(dir, 'missing'), a]);
    expect(entries).toHaveLength(1);
    await expect(readKnownHosts([dir])).rejects.toThrow(`${dir} is a folder, not a regular file`);
  });

  it('refuses a FIFO or a device as known_hosts at once, as an error that waiting does not fix', async () => {
    const fifo = join(dir, 'kh_fifo');
    execFileSync('mkfifo', [fifo]);
    for (const file of [fifo, '/dev/zero']) {
      await expect(readKnownHosts([file])).rejects.toMatchObject({
        code: 'LOCAL_FILE',
        retryable: false,
        message: expect.stringContaining(`${file} is a`),
        nextStep: expect.stringContaining('--known-hosts'),
      });
    }
  });
});

describe('rememberHostKey', () => {
  it('creates the file 0600 in a 0700 dir, with a line OpenSSH finds', async () => {
    const file = join(dir, 'new', 'ssh', 'known_hosts');
    await rememberHostKey(file, '127.0.0.1', 2222, keys.ed25519.blob, { hash: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'new', 'ssh')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toBe(`[127.0.0.1]:2222 ${keys.ed25519.line}\n`);
    expect(sshKeygen(['-F', '[127.0.0.1]:2222', '-f', file])).toContain(keys.ed25519.line);
  });

  it('appends hashed entries that ssh-keygen -F finds, keeping earlier lines and the mode', async () => {
    const file = join(dir, 'hashed_append');
    writeFileSync(file, `existing ${keys.rsa.line}`, { mode: 0o644 }); // no trailing newline
    await rememberHostKey(file, 'Node1.Example.com', 22, keys.ed25519.blob, { hash: true });
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe(`existing ${keys.rsa.line}`);
    expect(lines[1]).toMatch(/^\|1\|[A-Za-z0-9+/=]+\|[A-Za-z0-9+/=]+ ssh-ed25519 /);
    expect(lines[1]).not.toContain('node1');
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(sshKeygen(['-F', 'node1.example.com', '-f', file])).toContain('ssh-ed25519');
    expect(checkKnownHosts(parseKnownHosts(readFileSync(file, 'utf8'), file), 'node1.example.com', keys.ed25519.blob).status).toBe('known');
  });

  it('keeps every line when several hosts are remembered at once', async () => {
    const file = join(dir, 'concurrent_known_hosts');
    const hosts = Array.from({ length: 20 }, (_, i) => `node-${i}`);
    await Promise.all(hosts.map((h) => rememberHostKey(file, h, 22, keys.ed25519.blob, { hash: false })));
    const names = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
    expect(names.sort()).toEqual([...hosts].sort());
  });

  it('writes through a symlinked known_hosts instead of replacing the link', async () => {
    const real = join(dir, 'real_known_hosts');
    const link = join(dir, 'link_known_hosts');
    writeFileSync(real, '');
    symlinkSync(real, link);
    await rememberHostKey(link, 'node9', 22, keys.ecdsa.blob, { hash: false });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(`node9 ${keys.ecdsa.line}\n`);
  });
});
