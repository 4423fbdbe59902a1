import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { podProtoModuleText } from './proto-files';

describe('pod-proto.generated.ts', () => {
  it('is what proto/ generates: run scripts/gen-pod-proto-module.ts after changing proto/', () => {
    expect(readFileSync(new URL('./pod-proto.generated.ts', import.meta.url), 'utf8')).toBe(podProtoModuleText());
  });
});
