import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHostList } from '../fleet/host-list';
import { expandHostPatterns } from './ssh-host-patterns';

const dir = mkdtempSync(join(tmpdir(), 'ns-patterns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'config');
writeFileSync(join(dir, 'more.conf'), 'Host worker-10 db-1\n  HostName 10.0.0.10\n');
writeFileSync(
  config,
  ['Host bastion', '  HostName 10.0.0.1', 'Host worker-1 worker-2', '  ProxyJump bastion', 'Host worker-3 Worker-4', `Include ${join(dir, 'more.conf')}`, 'Host worker-*', '  User root', 'Host *', '  IdentitiesOnly yes', ''].join('\n'),
);

describe('expandHostPatterns', () => {
  it('expands a pattern to every alias the config (and its Includes) defines that fits, in config order', () => {
    expect(expandHostPatterns(['worker-*'], config)).toEqual(['worker-1', 'worker-2', 'worker-3', 'Worker-4', 'worker-10']);
    expect(expandHostPatterns(['worker-?'], config)).toEqual(['worker-1', 'worker-2', 'worker-3', 'Worker-4']);
  });

  it('honours comma lists and negation as ssh does', () => {
    expect(expandHostPatterns(['worker-*,!worker-1*'], config)).toEqual(['worker-2', 'worker-3', 'Worker-4']);
    expect(expandHostPatterns(['db-*,bastion'], config)).toEqual(['bastion', 'db-1']);
  });

  it('passes plain hosts through, keeps the order given and each host once', () => {
    expect(expandHostPatterns(['10.1.2.3', 'worker-2', 'worker-?', 'root@node-9'], config)).toEqual(['10.1.2.3', 'worker-2', 'worker-1', 'worker-3', 'Worker-4', 'root@node-9']);
  });

  it('says so when a pattern matches nothing, naming the config', () => {
    expect(() => expandHostPatterns(['gpu-*'], config)).toThrow(`'gpu-*' matches no Host alias in ${config}`);
  });
});

describe('parseHostList', () => {
  it('takes one host per line, skipping blanks and comments, each host once', () => {
    expect(parseHostList('# prod workers\nworker-1\n\n  worker-2   # rack 4\r\nworker-1\nroot@10.0.0.5:2222\n')).toEqual({
      hosts: ['worker-1', 'worker-2', 'root@10.0.0.5:2222'],
      problems: [],
    });
  });

  it('reports a line with two words by its number instead of guessing', () => {
    expect(parseHostList('worker-1\nworker-2 worker-3\n')).toEqual({
      hosts: ['worker-1'],
      problems: [{ line: 2, text: 'worker-2 worker-3', reason: 'more than one word: put one host per line' }],
    });
  });

  it('keeps a # that is part of a host-like word', () => {
    expect(parseHostList('a#b\n').hosts).toEqual(['a#b']);
  });
});
