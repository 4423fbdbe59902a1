import { defineConfig } from 'vitest/config';

// Tests run in plain Node (app/, main/ logic, renderer logic) and against real sshd/sockets (e2e/).
export default defineConfig({
  test: {
    include: ['app/**/*.test.ts', 'main/**/*.test.ts', 'scripts/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    globalSetup: ['scripts/build-cli-before-tests.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // expect.poll waits for what a page or a process shows; its 1 s default fails on a busy machine, never a fast one.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 60_000,
  },
});
