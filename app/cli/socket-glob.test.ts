import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandSocketGlob, isSocketGlob } from './socket-glob';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-glob-'));
const servers: Server[] = [];

beforeAll(async () => {
  for (const name of ['b-02.sock', 'b-10.sock', 'a-01.sock', 'other.socket']) {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((r) => server.listen(join(dir, name), r));
  }
  // A plain file that matches the glob is no socket: left out.
  writeFileSync(join(dir, 'z-file.sock'), '');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

describe('unix: socket globs', () => {
  it('expand to the matching sockets, sorted, as unix: sources', () => {
    expect(isSocketGlob(`unix:${dir}/*.sock`)).toBe(true);
    expect(isSocketGlob(`unix:${dir}/a-01.sock`)).toBe(false);
    expect(expandSocketGlob(`unix:${dir}/*.sock`)).toEqual(['a-01', 'b-02', 'b-10'].map((n) => `unix:${dir}/${n}.sock`));
    expect(expandSocketGlob(`unix:${dir}/b-?[0-9].sock`)).toEqual([`unix:${dir}/b-02.sock`, `unix:${dir}/b-10.sock`]);
    expect(expandSocketGlob(`unix:${dir}/[!b]*`)).toEqual([`unix:${dir}/a-01.sock`, `unix:${dir}/other.socket`]);
  });

  it('say what to do when nothing matches, the folder is missing, or the folder is a glob', () => {
    expect(() => expandSocketGlob(`unix:${dir}/*.nothing`)).toThrow(`matches no socket in ${dir}; list them with ls -l ${dir}`);
    expect(() => expandSocketGlob(`unix:${dir}/missing/*.sock`)).toThrow(`cannot list ${dir}/missing`);
    expect(() => expandSocketGlob(`unix:${dir}/*/x.sock`)).toThrow('only the file name may be a glob');
    expect(() => expandSocketGlob('unix:run/*.sock')).toThrow('absolute socket path');
  });
});
