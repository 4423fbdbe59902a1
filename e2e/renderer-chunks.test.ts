// The UI's build as npm start runs it: no chunk over Vite's size warning, which npm start showed users.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, createLogger, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../main/bundle';

/** Vite's default chunkSizeWarningLimit, in kB. */
const WARNING_KB = 500;
const outDir = mkdtempSync(join(tmpdir(), 'ns-chunks-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the renderer build', () => {
  it('splits the bundle so no chunk is over the size Vite warns about, and warns of nothing', async () => {
    const warnings: string[] = [];
    const logger = createLogger('warn');
    logger.warn = (msg) => void warnings.push(msg);
    // As npm start builds it (renderer-build.ts): React's production build, whatever NODE_ENV the tests run with.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const output = (await build({ configFile: join(projectRoot, 'vite.config.ts'), customLogger: logger, logLevel: 'warn', build: { outDir, emptyOutDir: true } }).finally(() => {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    })) as Rollup.RollupOutput;
    const chunks = output.output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.code.length / 1000, chunk.fileName).toBeLessThan(WARNING_KB);
    expect(warnings).toEqual([]);
  }, 120_000);
});
