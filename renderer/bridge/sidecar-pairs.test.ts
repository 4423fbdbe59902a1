import { describe, expect, it } from 'vitest';
import { pairSidecars } from './sidecar-pairs';

const f = (name: string) => ({ name });

describe('files uploaded together', () => {
  it('pairs each export with its sidecar, keeps the others alone, and names a sidecar that came without its export', () => {
    const { uploads, strays } = pairSidecars([f('a.json.nodescope.json'), f('a.json'), f('b.recording'), f('c.json.nodescope.json')]);
    expect(uploads).toEqual([{ file: f('a.json'), sidecar: f('a.json.nodescope.json') }, { file: f('b.recording') }]);
    expect(strays).toEqual([f('c.json.nodescope.json')]);
  });
});
