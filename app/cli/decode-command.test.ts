import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeListPodsResponse, writeWatchPodsEvent } from '../kubelet/testing/pods-api-writers';
import { encodePod } from '../pod/encode';
import { kubectlJsonToYaml } from '../pod/kubectl-yaml';
import { podTreesFromKubectlYaml } from '../pod/kubectl-yaml-reader';
import { str, webPodBytes, webPodJson, withDeepManagedFields } from '../pod/testdata/handmade-pods';

const bin = resolve(__dirname, '..', '..', 'bin', 'nodescope.js');
const dir = mkdtempSync(join(tmpdir(), 'nodescope-decode-'));
function nodescope(args: string[], input?: Uint8Array) {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('nodescope decode', () => {
  it('prints a pod file exactly as kubectl would, and reads stdin too', () => {
    const path = file('web.pb', webPodBytes());
    expect(nodescope(['decode', path])).toEqual({ code: 0, stdout: webPodJson, stderr: '' });
    expect(nodescope(['decode'], webPodBytes()).stdout).toBe(webPodJson);
  });

  it('prints kubectl YAML on request: one pod as itself, several as a List', () => {
    const pod = nodescope(['decode', '-o', 'yaml', file('web-y.pb', webPodBytes())]);
    expect(pod.code).toBe(0);
    expect(pod.stdout).toBe(kubectlJsonToYaml(webPodJson).yaml);
    // The pod's note holds U+2028, which kubectl's YAML keeps: nothing to warn about.
    expect(pod.stderr).toBe('');
    const good = webPodBytes();
    const r = nodescope(['decode', '--type', 'list', '-o', 'yaml', file('list-y.pb', writeListPodsResponse([good, good]))]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(kubectlJsonToYaml(`{"apiVersion":"v1","items":[${webPodJson},${webPodJson}],"kind":"List","metadata":{"resourceVersion":""}}`).yaml);
  });

  it("prints U+2028/U+2029 as kubectl does (kubectl v1.32's bytes), and only U+0085 escaped, with a warning", () => {
    const cases = resolve(__dirname, '..', 'pod', 'testdata', 'yaml');
    const kubectlYaml = readFileSync(join(cases, 'line-separators.yaml'), 'utf8');
    const tree = podTreesFromKubectlYaml(kubectlYaml)[0]!;
    expect(nodescope(['decode', '-o', 'yaml', file('ls.pb', encodePod(tree))])).toEqual({ code: 0, stdout: kubectlYaml, stderr: '' });
    const nel = nodescope(['decode', '-o', 'yaml', file('nel.pb', encodePod({ ...tree, metadata: { ...(tree.metadata as object), annotations: { a: 'x\u0085y' } } }))]);
    expect(nel.stdout).toContain('    a: "x\\Ny"\n');
    expect(nel.stderr).toMatch(/kubectl would print .*nel\.pb with values that do not read back the same \(U\+0085 reads back as a space\): metadata\.annotations\.a \(U\+0085\)/);
  });

  it('prints a captured ListPodsResponse as a List, keeping the good pods when one is malformed', () => {
    const good = webPodBytes();
    const path = file('list.pb', writeListPodsResponse([good, good.subarray(0, 40), good]));
    const r = nodescope(['decode', '--type', 'list', path]);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).items).toHaveLength(2);
    expect(r.stderr).toMatch(/cannot decode pod .*list\.pb pods\[1\].* at byte offset \d+/);
  });

  it('reads a WatchPodsEvent and prints NDJSON on request', () => {
    const path = file('ev.pb', writeWatchPodsEvent('MODIFIED', webPodBytes()));
    const r = nodescope(['decode', '--type', 'watch', '-o', 'ndjson', path]);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).metadata.name).toBe('web-0');
  });

  it('warns on stderr about fields a newer kubelet sent, and leaves them out of the JSON', () => {
    const path = file('newer.pb', webPodBytes({ specExtra: (s) => str(s, 4242, 'future') }));
    const r = nodescope(['decode', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(webPodJson);
    expect(r.stderr).toBe('warning: pod default/web-0: 1 field unknown to this Nodescope (a newer kubelet?) left out of the JSON: spec#4242 (bytes, 6 bytes)\n');
  });

  it('says what is wrong with bad input and exits with distinct codes', () => {
    const truncated = nodescope(['decode', file('cut.pb', webPodBytes().subarray(0, 60))]);
    expect(truncated.code).toBe(5);
    expect(truncated.stderr).toMatch(/^nodescope decode: cannot decode pod .*cut\.pb.*: .* at byte offset \d+/);
    expect(nodescope(['decode', join(dir, 'missing.pb')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot read .*missing\.pb: no such file/) });
    expect(nodescope(['decode', '--output', 'xml', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown output 'xml': use json, yaml or ndjson/) });
  });
});

describe('nodescope decode on input that is not captured pod bytes', () => {
  it('refuses a file larger than any Pods API message before reading it (a 1 GB sparse file)', () => {
    const path = join(dir, 'sparse.pb');
    writeFileSync(path, '');
    truncateSync(path, 1024 ** 3);
    const r = nodescope(['decode', path]);
    expect(r).toMatchObject({ code: 5, stdout: '' });
    expect(r.stderr).toContain(`nodescope decode: ${path} is 1024 MiB, larger than any Pods API message (512 MiB at most): is it the right file?\n`);
  });

  it('says an empty file is empty instead of printing an empty pod', () => {
    const r = nodescope(['decode', file('empty.pb', new Uint8Array())]);
    expect(r).toMatchObject({ code: 5, stdout: '' });
    expect(r.stderr).toMatch(/empty\.pb is empty: expected the captured protobuf bytes of a pod/);
    expect(nodescope(['decode', '--type', 'get'], new Uint8Array([0x0a, 0x00]))).toMatchObject({ code: 5, stderr: expect.stringMatching(/stdin: the GetPodResponse carries no pod/) });
  });

  it('names the file, the byte offset and what it expected for garbage', () => {
    const garbage = file('garbage.pb', Buffer.from('ffffffffffffffffffff01', 'hex'));
    for (const type of ['list', 'get', 'watch']) {
      const r = nodescope(['decode', '--type', type, garbage]);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(new RegExp(`^nodescope decode: .*garbage\\.pb: not a \\w+Response|^nodescope decode: .*garbage\\.pb: not a WatchPodsEvent`));
      expect(r.stderr).toMatch(/at byte offset \d+; expected a (ListPodsResponse|GetPodResponse|WatchPodsEvent) \(/);
    }
    const text = nodescope(['decode', file('text.pb', Buffer.from('hello, world\n'))]);
    expect(text.code).toBe(5);
    expect(text.stderr).toMatch(/^nodescope decode: cannot decode pod .*text\.pb: .* at byte offset \d+; expected the protobuf bytes of one pod .*--type list, get or watch\n$/);
    const cut = nodescope(['decode', '--type', 'list', file('cut-list.pb', writeListPodsResponse([webPodBytes()]).subarray(0, 50))]);
    expect(cut.stderr).toMatch(/cut-list\.pb: not a ListPodsResponse: length \d+ runs past the end of its message \(\d+ bytes left\) at byte offset 3; expected a ListPodsResponse/);
  });
});

describe('nodescope decode --show-managed-fields on deeply nested managedFields', () => {
  it('prints any depth kubectl prints, and refuses deeper ones with the limit instead of crashing', () => {
    const deep = nodescope(['decode', '--show-managed-fields', file('deep.pb', webPodBytes({ metaExtra: withDeepManagedFields(500) }))]);
    expect(deep.code, deep.stderr).toBe(0);
    expect(deep.stdout).not.toContain('undefined');
    expect(deep.stdout.split('"f:a"')).toHaveLength(500);
    expect(JSON.parse(deep.stdout).metadata.managedFields[0].manager).toBe('m');
    const tooDeep = nodescope(['decode', '--show-managed-fields', file('too-deep.pb', webPodBytes({ metaExtra: withDeepManagedFields(100_000) }))]);
    expect(tooDeep.code).toBe(5);
    expect(tooDeep.stderr).toMatch(/fieldsV1 is nested 100000 levels deep; kubectl cannot read or print more than 9996/);
  });
});
