import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness } from '../../e2e/harness/ssh-harness';
import { formatJumpHost, listSshConfigHosts, parseJumpHost, resolveSshHost, resolveSshRoute, type ResolvedSshHost, type SshOverrides } from './ssh-config';
import { localAccount } from './ssh-config-tokens';

// Created at load time because the test table below names files in it.
const dir = mkdtempSync(join(tmpdir(), 'nodescope-ssh-config-'));
const config = join(dir, 'config');
const existingKey = join(dir, 'id_existing');
const home = localAccount().home;

beforeAll(() => {
  mkdirSync(join(dir, 'conf.d'));
  writeFileSync(existingKey, 'not really a key; only its existence matters here\n');
  writeFileSync(join(dir, 'conf.d', '10-first.conf'), ['Host inc-only', '  HostName inc.example.org', '  User from-include', 'Host node1', '  Port 9999', ''].join('\n'));
  writeFileSync(join(dir, 'conf.d', '20-second.conf'), ['Host inc-two', '  Port 2020', ''].join('\n'));
  writeFileSync(join(dir, 'conf.d', 'ignored.txt'), 'Host not-included\n');
  writeFileSync(join(dir, 'cond.conf'), ['User cond-user', 'Host cond-inner', '  Port 3030', ''].join('\n'));
  writeFileSync(
    join(dir, 'syntax.conf'),
    ['Host=eq', '\tHOSTNAME=eq.example', '  Port = 2201 # trailing comment', '  User "quoted user"', 'Host  tab\tother', '  IdentityFile "/k/a b"',
      'Match host eq.example', '  ConnectTimeout 9', 'Host mh', '  HostName real-%h', 'Match host real-mh', '  User matched', ''].join('\n'),
  );
  writeFileSync(join(dir, 'loop.conf'), ['Host loopa', '  ProxyJump loopb', 'Host loopb', '  ProxyJump loopa', ''].join('\n'));
  writeFileSync(
    config,
    [
      '# Nodescope test config',
      'Host node1',
      '  HostName 127.0.0.1',
      '  Port 2201',
      '  User ops',
      '  IdentityFile ~/.ssh/id_node1',
      '  IdentityFile /keys/%r@%h:%p-%n',
      '  ServerAliveInterval 15',
      '  ServerAliveCountMax=5',
      'Host node2 node3',
      '  HostName %h.cluster.example',
      '  ProxyJump bastion',
      'Host bastion',
      '  HostName 192.0.2.10',
      '  User jumper',
      '  Port 2022',
      'Host *.internal !bad.internal',
      '  User internal-user',
      'Host web-?',
      '  Port 8022',
      'Host pc',
      '  ProxyCommand nc %h %p',
      'Host aliased',
      '  HostKeyAlias node-alias',
      '  IdentityFile ~/.ssh/%k_%C',
      'Host cond',
      `  Include ${join(dir, 'cond.conf')}`,
      'Host quoted',
      '  IdentityFile "/keys/with space/id"',
      'Match host *.cluster.example',
      '  ConnectTimeout 7',
      '  IdentitiesOnly yes',
      'Match user ops',
      '  HashKnownHosts yes',
      'Match originalhost node3',
      '  StrictHostKeyChecking accept-new',
      'Match !localuser nobody-at-all host 127.0.0.1',
      '  BatchMode yes',
      'Match all',
      `Include ${join(dir, 'conf.d', '*.conf')}`,
      `Include ${join(dir, 'loop.conf')}`,
      'Host nokh',
      '  UserKnownHostsFile none',
      '  StrictHostKeyChecking no',
      '  IdentityAgent none',
      'Host spaced',
      '  UserKnownHostsFile "/x/my kh" "/x/a /b" ~/other',
      '  GlobalKnownHostsFile "/etc/ssh/a b" /etc/ssh/c',
      'Host envagent',
      '  IdentityAgent ${HOME}/agent-%u.sock',
      'Host *',
      '  UserKnownHostsFile ~/.ssh/known_hosts_%h /tmp/kh/%n_%p',
      '  GlobalKnownHostsFile /etc/ssh/nodes_known_hosts',
      '  IdentityAgent ~/agent-%r.sock',
      '  StrictHostKeyChecking yes',
      '  ProxyJump none',
      '',
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves with both evaluators, asserts they agree, and returns the result. */
async function resolveBoth(destination: string, overrides: SshOverrides = {}): Promise<ResolvedSshHost> {
  const [openssh, builtin] = await Promise.all([
    resolveSshHost(destination, overrides, { evaluator: 'openssh' }),
    resolveSshHost(destination, overrides, { evaluator: 'builtin' }),
  ]);
  expect(openssh.source).toBe('openssh');
  expect(builtin.source).toBe('builtin');
  expect({ ...builtin, source: 'x' }, `${destination} ${JSON.stringify(overrides)}`).toEqual({ ...openssh, source: 'x' });
  return openssh;
}

describe('resolveSshHost: ssh -G and the built-in reader agree', () => {
  const cases: [string, SshOverrides][] = [
    ['node1', {}],
    ['node1', { user: 'override', port: 2222 }],
    ['someone@node1', {}],
    ['someone@node1', { user: 'flag-wins' }],
    ['node1', { identityFiles: [existingKey, join(dir, 'missing-key')] }],
    ['node2', {}],
    ['node3', {}],
    ['node2', { proxyJump: 'u@j1:2200,j2' }],
    ['node2', { proxyJump: 'none' }],
    ['bastion', {}],
    ['a.internal', {}],
    ['bad.internal', {}],
    ['web-1', {}],
    ['web-12', {}],
    ['Node1', {}],
    ['pc', {}],
    ['aliased', {}],
    ['cond', {}],
    ['cond-inner', {}],
    ['quoted', {}],
    ['inc-only', {}],
    ['inc-two', {}],
    ['nokh', {}],
    ['spaced', {}],
    ['envagent', {}],
    ['plain.example.org', {}],
  ];
  for (const [destination, overrides] of cases) {
    it(`${destination} ${JSON.stringify(overrides)}`, async () => {
      await resolveBoth(destination, { ...overrides, configFile: config });
    });
  }

  for (const destination of ['eq', 'tab', 'other', 'mh']) {
    it(`${destination} in a file using '=', tabs, quotes, trailing comments and Match host on HostName`, async () => {
      await resolveBoth(destination, { configFile: join(dir, 'syntax.conf') });
    });
  }

  it('also agrees on the machine\'s default files (~/.ssh/config, /etc/ssh/ssh_config and its Includes)', async () => {
    await resolveBoth('default-files.example.org');
  });
});

describe('resolveSshHost results', () => {
  it('applies the first value, accumulates IdentityFile and expands tokens', async () => {
    const r = await resolveBoth('node1', { configFile: config });
    expect(r).toMatchObject({
      alias: 'node1',
      hostname: '127.0.0.1',
      user: 'ops',
      port: 2201, // not the 9999 from a later Include
      identityFiles: [`${home}/.ssh/id_node1`, '/keys/ops@127.0.0.1:2201-node1'],
      serverAliveInterval: 15,
      serverAliveCountMax: 5,
      hashKnownHosts: true,
      batchMode: true,
      strictHostKeyChecking: 'yes',
      userKnownHostsFiles: [`${home}/.ssh/known_hosts_127.0.0.1`, '/tmp/kh/node1_2201'],
      globalKnownHostsFiles: ['/etc/ssh/nodes_known_hosts'],
      identityAgent: `${home}/agent-ops.sock`,
      proxyJump: [],
      warnings: [],
    });
  });

  it('lets command-line options win and lists -i files first, dropping missing ones with ssh\'s warning', async () => {
    const missing = join(dir, 'missing-key');
    const r = await resolveBoth('node1', { configFile: config, user: 'override', port: 2222, identityFiles: [existingKey, missing] });
    expect(r.user).toBe('override');
    expect(r.port).toBe(2222);
    expect(r.identityFiles[0]).toBe(existingKey);
    expect(r.identityFiles).not.toContain(missing);
    expect(r.warnings).toEqual([`Warning: Identity file ${missing} not accessible: No such file or directory.`]);
    expect(r.hashKnownHosts).toBe(false); // Match user ops no longer applies
  });

  it('parses ProxyJump chains and Match blocks', async () => {
    const n3 = await resolveBoth('node3', { configFile: config });
    expect(n3).toMatchObject({ hostname: 'node3.cluster.example', proxyJump: [{ host: 'bastion' }], connectTimeout: 7, identitiesOnly: true, strictHostKeyChecking: 'accept-new' });
    const n2 = await resolveBoth('node2', { configFile: config, proxyJump: 'u@j1:2200,j2' });
    expect(n2.proxyJump).toEqual([{ user: 'u', host: 'j1', port: 2200 }, { host: 'j2' }]);
    expect(n2.strictHostKeyChecking).toBe('yes');
  });

  it('matches Host patterns with wildcards and negation, case-sensitively', async () => {
    expect((await resolveBoth('a.internal', { configFile: config })).user).toBe('internal-user');
    expect((await resolveBoth('bad.internal', { configFile: config })).user).toBe(localAccount().user);
    expect((await resolveBoth('web-1', { configFile: config })).port).toBe(8022);
    expect((await resolveBoth('web-12', { configFile: config })).port).toBe(22);
    expect((await resolveBoth('Node1', { configFile: config })).hostname).toBe('node1');
  });

  it('follows Include globs and conditional Includes', async () => {
    expect(await resolveBoth('inc-only', { configFile: config })).toMatchObject({ hostname: 'inc.example.org', user: 'from-include' });
    expect((await resolveBoth('cond', { configFile: config })).user).toBe('cond-user');
    expect((await resolveBoth('cond-inner', { configFile: config })).port).toBe(22); // the include's own Host block never opens
  });

  it('reports ProxyCommand, HostKeyAlias, `none` values and defaults', async () => {
    expect(await resolveBoth('pc', { configFile: config })).toMatchObject({ proxyCommand: 'nc %h %p', proxyJump: [] });
    const aliased = await resolveBoth('aliased', { configFile: config });
    expect(aliased.hostKeyAlias).toBe('node-alias');
    expect(aliased.identityFiles[0]).toMatch(new RegExp(`^${home}/\\.ssh/node-alias_[0-9a-f]{40}$`));
    expect(await resolveBoth('nokh', { configFile: config })).toMatchObject({ userKnownHostsFiles: [], strictHostKeyChecking: 'no', identityAgent: 'none' });
    const plain = await resolveBoth('plain.example.org', { configFile: config });
    expect(plain).toMatchObject({ port: 22, user: localAccount().user, serverAliveInterval: 0, serverAliveCountMax: 3, identitiesOnly: false, batchMode: false });
    expect(plain.connectTimeout).toBeUndefined();
    expect(plain.identityFiles).toContain(`${home}/.ssh/id_ed25519`);
  });

  it('reads yes/no and other settings whatever their case, as ssh does: PasswordAuthentication No is off', async () => {
    const mixed = join(dir, 'mixed-case.conf');
    writeFileSync(mixed, ['Host mixed', '  HostName 127.0.0.1', '  PasswordAuthentication No', '  KbdInteractiveAuthentication NO', '  StrictHostKeyChecking Yes', '  AddressFamily INET', '  IdentitiesOnly Yes', '  BatchMode Yes', ''].join('\n'));
    expect(await resolveBoth('mixed', { configFile: mixed })).toMatchObject({
      authMethods: ['publickey'],
      strictHostKeyChecking: 'yes',
      addressFamily: 'inet',
      identitiesOnly: true,
      batchMode: true,
    });
  });

  it('keeps a quoted known_hosts path with a space as one path, as ssh does', async () => {
    expect(await resolveBoth('spaced', { configFile: config })).toMatchObject({
      userKnownHostsFiles: ['/x/my kh', '/x/a /b', `${home}/other`],
      globalKnownHostsFiles: ['/etc/ssh/a b', '/etc/ssh/c'],
    });
  });

  it('resolves many hosts at once (as the host picker does) running only a few ssh processes at a time', async () => {
    const log = join(dir, 'ssh-g.log');
    const wrapper = join(dir, 'ssh-wrapper.sh');
    writeFileSync(wrapper, `#!/bin/sh\necho start >> '${log}'\nsleep 0.1\necho end >> '${log}'\nexec ssh "$@"\n`, { mode: 0o755 });
    const aliases = Array.from({ length: 16 }, (_, i) => `web-${i % 10}`);
    const results = await Promise.all(aliases.map((a) => resolveSshHost(a, { configFile: config }, { evaluator: 'openssh', sshBinary: wrapper })));
    expect(results.map((r) => r.port)).toEqual(aliases.map(() => 8022));
    let running = 0;
    let peak = 0;
    for (const event of readFileSync(log, 'utf8').trim().split('\n')) {
      running += event === 'start' ? 1 : -1;
      peak = Math.max(peak, running);
    }
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(4);
  });

  it('uses ssh -G when an ssh binary is on PATH and the built-in reader otherwise', async () => {
    expect((await resolveSshHost('node1', { configFile: config })).source).toBe('openssh');
    const noSsh = await resolveSshHost('node1', { configFile: config }, { env: { ...process.env, PATH: dir } });
    expect(noSsh).toMatchObject({ source: 'builtin', port: 2201 });
    await expect(resolveSshHost('node1', { configFile: config }, { evaluator: 'openssh', env: { ...process.env, PATH: dir } })).rejects.toThrow(/no ssh binary found/);
  });

  it('rejects destinations that ssh would read as options, and bad ports', async () => {
    await expect(resolveSshHost('-oProxyCommand=touch /tmp/pwned', {}, { evaluator: 'openssh' })).rejects.toThrow(/invalid ssh host/);
    await expect(resolveSshHost('node1', { port: 70000 }, { evaluator: 'builtin' })).rejects.toThrow(/bad port '70000'/);
    expect(() => parseJumpHost('u@:22')).toThrow(/bad ProxyJump element/);
    expect(parseJumpHost('ssh://me@[2001:db8::1]:2200')).toEqual({ user: 'me', host: '2001:db8::1', port: 2200 });
    expect(formatJumpHost({ user: 'me', host: '2001:db8::1', port: 2200 })).toBe('me@[2001:db8::1]:2200');
  });

  it('names the problem when the built-in reader meets what only ssh can evaluate', async () => {
    const execConfig = join(dir, 'exec.conf');
    writeFileSync(execConfig, 'Match exec "true"\n  User x\n');
    await expect(resolveSshHost('h', { configFile: execConfig }, { evaluator: 'builtin' })).rejects.toThrow(/exec.conf line 1: 'Match exec' is not supported .*Install the OpenSSH client/);
    expect((await resolveSshHost('h', { configFile: execConfig }, { evaluator: 'openssh' })).user).toBe('x');
    await expect(resolveSshHost('h', { configFile: join(dir, 'nope') }, { evaluator: 'builtin' })).rejects.toThrow(/does not exist/);
    const extra = join(dir, 'extra.conf');
    writeFileSync(extra, 'Host *\n  IdentityFile /a /b\n');
    for (const evaluator of ['builtin', 'openssh'] as const) {
      await expect(resolveSshHost('h', { configFile: extra }, { evaluator })).rejects.toThrow(/extra.conf line 2: keyword identityfile extra arguments at end of line/);
    }
    await expect(resolveSshHost('h', { configFile: join(dir, 'nope') }, { evaluator: 'openssh' })).rejects.toThrow(/ssh -G could not evaluate/);
  });

  it('refuses a FIFO as the config file or an Include at once, with either reader', async () => {
    const fifo = join(dir, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const evaluator of ['builtin', 'openssh'] as const) {
      await expect(resolveSshHost('h', { configFile: fifo }, { evaluator })).rejects.toThrow(`${fifo} is a FIFO (named pipe), not a regular file`);
    }
    const including = join(dir, 'including.conf');
    writeFileSync(including, `Include ${fifo}\nHost h\n  User x\n`);
    await expect(resolveSshHost('h', { configFile: including }, { evaluator: 'builtin' })).rejects.toThrow(/is a FIFO/);
    expect(() => listSshConfigHosts(including)).toThrow(/is a FIFO/);
  });

  it('refuses, as ssh does, an Included file others may write', async () => {
    const writable = join(dir, 'writable.conf');
    writeFileSync(writable, 'Host h\n  StrictHostKeyChecking no\n');
    chmodSync(writable, 0o666);
    const including = join(dir, 'includes-writable.conf');
    writeFileSync(including, `Include ${writable}\n`);
    for (const evaluator of ['builtin', 'openssh'] as const) {
      await expect(resolveSshHost('h', { configFile: including }, { evaluator })).rejects.toThrow(`Bad owner or permissions on ${writable}`);
    }
    chmodSync(writable, 0o644);
    expect((await resolveBoth('h', { configFile: including })).strictHostKeyChecking).toBe('no');
  });

  it('refuses a misspelled keyword as ssh does, unless IgnoreUnknown names it', async () => {
    const typo = join(dir, 'typo.conf');
    writeFileSync(typo, 'Host other\n  StrictHostKeyChecks no\n');
    for (const evaluator of ['builtin', 'openssh'] as const) {
      await expect(resolveSshHost('h', { configFile: typo }, { evaluator })).rejects.toThrow(/line 2: Bad configuration option: stricthostkeychecks/);
    }
    const ignoring = join(dir, 'ignoring.conf');
    writeFileSync(ignoring, 'IgnoreUnknown UseKeychain,StrictHostKeyCh*\nHost other\n  StrictHostKeyChecks no\n  UseKeychain yes\n');
    await resolveBoth('h', { configFile: ignoring });
  });

  it('expands [0-9] classes in Include globs as ssh does', async () => {
    mkdirSync(join(dir, 'classes'));
    writeFileSync(join(dir, 'classes', '1-port.conf'), 'Host classy\n  Port 4041\n');
    writeFileSync(join(dir, 'classes', 'a-user.conf'), 'Host classy\n  User not-included\n');
    const including = join(dir, 'includes-classes.conf');
    writeFileSync(including, `Include ${join(dir, 'classes', '[0-9]-*.conf')}\n`);
    expect(await resolveBoth('classy', { configFile: including })).toMatchObject({ port: 4041, user: localAccount().user });
  });
});

describe('resolveSshRoute', () => {
  it('resolves each ProxyJump hop from the config, outermost first', async () => {
    for (const evaluator of ['openssh', 'builtin'] as const) {
      const route = await resolveSshRoute('node2', { configFile: config }, { evaluator });
      expect(route.map((r) => [r.alias, r.hostname, r.user, r.port])).toEqual([
        ['bastion', '192.0.2.10', 'jumper', 2022],
        ['node2', 'node2.cluster.example', localAccount().user, 22],
      ]);
      const chain = await resolveSshRoute('node1', { configFile: config, proxyJump: 'x@bastion:2100,web-1' }, { evaluator });
      expect(chain.map((r) => [r.alias, r.user, r.port])).toEqual([
        ['bastion', 'x', 2100],
        ['web-1', localAccount().user, 8022],
        ['node1', 'ops', 2201],
      ]);
    }
  });

  it('stops at a ProxyJump loop with a clear error', async () => {
    await expect(resolveSshRoute('loopa', { configFile: config }, { evaluator: 'builtin' })).rejects.toThrow(/ProxyJump loop/);
  });

  it('resolves the harness ssh_config route through its jump host', async () => {
    const h = await startSshHarness();
    try {
      const route = await resolveSshRoute('via-jump-operator', { configFile: h.sshConfig });
      expect(route.map((r) => [r.hostname, r.port, r.user, r.identityFiles])).toEqual([
        [h.host, h.jumpPort, h.jump.name, [h.jump.key]],
        [h.host, h.port, h.operator.name, [h.operator.key]],
      ]);
      expect(route.every((r) => r.userKnownHostsFiles[0] === h.knownHosts && r.strictHostKeyChecking === 'yes')).toBe(true);
    } finally {
      await h.stop();
    }
  });
});

describe('listSshConfigHosts', () => {
  it('lists concrete Host names, following Includes, without wildcard or negated patterns', () => {
    expect(listSshConfigHosts(config)).toEqual([
      'node1', 'node2', 'node3', 'bastion', 'pc', 'aliased', 'cond', 'cond-inner', 'quoted', 'inc-only', 'inc-two', 'loopa', 'loopb', 'nokh', 'spaced', 'envagent',
    ]);
  });

  it('returns nothing for a missing file', () => {
    expect(listSshConfigHosts(join(dir, 'absent'))).toEqual([]);
  });
});
