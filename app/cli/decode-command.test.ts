import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeListPodsResponse, writeWatchPodsEvent } from '../kubelet/pods-api-messages';
import { kubectlJsonToYaml } from '../pod/kubectl-yaml';
import { str, webPodBytes, webPodJson } from '../pod/testdata/handmade-pods';

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
    // The pod's note holds U+2028, which kubectl's YAML would not keep.
    expect(pod.stderr).toMatch(/kubectl would print .*web-y\.pb with values that do not read back the same .*metadata\.annotations\.note \(U\+2028\)/);
    const good = webPodBytes();
    const r = nodescope(['decode', '--type', 'list', '-o', 'yaml', file('list-y.pb', writeListPodsResponse([good, good]))]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(kubectlJsonToYaml(`{"apiVersion":"v1","items":[${webPodJson},${webPodJson}],"kind":"List","metadata":{"resourceVersion":""}}`).yaml);
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
    expect(truncated.stderr).toMatch(/^nodescope decode: cannot decode pod .*cut\.pb: .* at byte offset \d+/);
    expect(nodescope(['decode', join(dir, 'missing.pb')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot read .*missing\.pb: no such file/) });
    expect(nodescope(['decode', '--output', 'xml', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown output 'xml': use json, yaml or ndjson/) });
  });
});
