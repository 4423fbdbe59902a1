/**
 * Generated ssh_config trees for checking the built-in config reader against `ssh -G` (OpenSSH 9.2) as
 * the oracle: Host patterns and negation, Match host/user/originalhost/all/final/exec, Include with glob
 * classes, %-tokens and CanonicalizeHostname. `@DIR@` stands for the folder the files are written to.
 */
export interface SshGCase {
  name: string;
  /** Path (relative to @DIR@) → content; `config` is the file given with -F. */
  files: Record<string, string>;
  destinations: string[];
  /** Set when the built-in reader must refuse this config (it cannot evaluate it as ssh does): its message. */
  builtinRefuses?: RegExp;
}

const lines = (...ls: string[]) => ls.join('\n') + '\n';

/** Host blocks of one keyword each, so every pattern's effect shows in one value. */
function hostPatternConfig(): string {
  const blocks: [string, string][] = [
    ['web-? !web-9', 'Port 2001'],
    ['*.prod.example !db*.prod.example', 'User produser'],
    ['db*', 'User dbuser'],
    ['Mixed', 'HostName mixed.example'],
    ['!*.lab *.example', 'ConnectTimeout 11'],
    ['10.0.0.*', 'Port 2003'],
  ];
  return lines(...blocks.flatMap(([pattern, setting]) => [`Host ${pattern}`, `  ${setting}`]), 'Host *', '  User fallback');
}

export const SSH_G_CASES: SshGCase[] = [
  {
    name: 'host-patterns',
    files: { config: hostPatternConfig() },
    destinations: ['web-1', 'web-9', 'web-10', 'app.prod.example', 'db1.prod.example', 'Mixed', 'mixed', 'a.lab', 'x.example', '10.0.0.7', 'plain'],
  },
  {
    name: 'match',
    files: {
      config: lines(
        'Host n1', '  HostName n1.real.example',
        'Match host n1.real.example', '  IdentitiesOnly yes',
        'Match originalhost n2', '  HostName n2.real.example', '  Port 2222',
        'Match user special host *.real.example', '  Port 3333',
        'Match !host *.real.example', '  ConnectTimeout 5',
        'Match originalhost N3', '  Port 4444',
        'Match all', '  ServerAliveInterval 7', '  User matchall',
      ),
    },
    destinations: ['n1', 'n2', 'special@n1', 'special@n2', 'other', 'n3', 'N3'],
  },
  {
    // A second pass over the files, as ssh makes for `Match final`: Host patterns then see the HostName.
    name: 'match-final',
    files: {
      config: lines(
        'Host fin', '  HostName FIN-%h.example',
        'Host fin-fin.example', '  Port 2345',
        'Match final host fin-fin.example', '  User finaluser',
        'Match final originalhost fin', '  ConnectTimeout 4',
        'Match !final', '  ServerAliveInterval 9',
        'Match canonical', '  ServerAliveCountMax 8',
        'Host other', '  Port 2346',
      ),
    },
    destinations: ['fin', 'other'],
  },
  {
    name: 'match-exec',
    files: { config: lines('Match exec "true"', '  User execuser') },
    destinations: ['anything'],
    builtinRefuses: /'Match exec' is not supported by the built-in ssh config reader/,
  },
  {
    name: 'include',
    files: {
      config: lines('Include @DIR@/conf.d/[0-9]*.conf', 'Host inc-a', '  Include @DIR@/inner-?.conf', 'Host *', '  User incdefault'),
      'conf.d/10-a.conf': lines('Host inc-a', '  Port 1010'),
      'conf.d/2b.conf': lines('Host inc-b', '  Port 2020', 'Host inc-a', '  Port 2021'),
      'conf.d/x-not-a-digit.conf': lines('Host inc-a inc-b inc-c', '  Port 9999'),
      'inner-1.conf': lines('HostName inner1.example', 'User inner'),
      'inner-2.conf': lines('HostName inner2.example', 'ConnectTimeout 3'),
      'inner-10.conf': lines('ConnectTimeout 99'),
    },
    destinations: ['inc-a', 'inc-b', 'inc-c'],
  },
  {
    name: 'tokens',
    files: {
      config: lines(
        'Host tok',
        '  HostName tok-%h.example',
        '  Port 2200',
        '  IdentityFile @DIR@/id_%h_%p_%r_%n',
        '  IdentityFile %d/.ssh/id_%u_%%',
        '  UserKnownHostsFile @DIR@/kh_%C @DIR@/kh_%n_%h_%p_%r %d/kh_%u',
        '  IdentityAgent @DIR@/agent_%r_%h.sock',
        '  CertificateFile @DIR@/cert_%n-cert.pub',
        '  RevokedHostKeys @DIR@/krl_%h',
        'Host *', '  User tokuser',
        // Named again: ssh keeps one of each.
        '  IdentityFile @DIR@/id_%h_%p_%r_%n', '  CertificateFile @DIR@/cert_%n-cert.pub', '  IdentityFile @DIR@/id_second',
      ),
    },
    destinations: ['tok', 'someone@tok'],
  },
  {
    name: 'token-host-key-alias',
    files: { config: lines('Host aliased', '  HostName 10.1.2.3', '  HostKeyAlias node-%h', '  UserKnownHostsFile @DIR@/kh_%k', '  IdentityAgent @DIR@/agent_%k_%n') },
    destinations: ['aliased', 'plain'],
  },
  {
    name: 'canonical',
    files: { config: lines('Host canon', '  CanonicalizeHostname yes', '  CanonicalDomains example.invalid', '  CanonicalizeFallbackLocal yes', '  User canonuser') },
    destinations: ['canon'],
  },
];
