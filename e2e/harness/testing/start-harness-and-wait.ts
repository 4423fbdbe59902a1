// Test helper process: starts a harness, reports where it lives, then waits to be killed,
// so the watchdog's cleanup after an abrupt death can be observed from outside.
import { startSshHarness } from '../ssh-harness';

const parent = process.ppid;
const h = await startSshHarness({ passwordUser: true });
process.stdout.write(JSON.stringify({ dir: h.dir, port: h.port, user: h.passwordUser!.name }) + '\n');
// If the test itself dies before killing us, do not linger: exiting lets the watchdog clean up.
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 500);
