/**
 * Vitest global setup: the tests that spawn bin/nodescope.js run the CLI as users do, from the build in
 * dist/cli, so it is rebuilt first from the sources under test.
 */
import { buildCli } from './build-cli';

export async function setup(): Promise<void> {
  await buildCli();
}
