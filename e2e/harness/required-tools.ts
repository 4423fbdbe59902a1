import { accessSync, constants } from 'node:fs';

/** Programs the harness runs, by the paths it uses, with the Debian package that provides each. */
const REQUIRED: [path: string, debianPackage: string][] = [
  ['/usr/sbin/sshd', 'openssh-server'],
  ['/usr/bin/ssh-keygen', 'openssh-client'],
  ['/usr/bin/sudo', 'sudo'],
  ['/usr/sbin/visudo', 'sudo'],
  // The sudoers rule names this exact path.
  ['/usr/bin/socat', 'socat'],
  ['/usr/sbin/useradd', 'passwd'],
];

/** Fails up front, naming what to install, instead of deep inside a start-up step. */
export function checkRequiredTools(): void {
  const missing = REQUIRED.filter(([path]) => {
    try {
      accessSync(path, constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) {
    const packages = [...new Set(missing.map(([, pkg]) => pkg))].join(' ');
    throw new Error(`the ssh harness needs ${missing.map(([p]) => p).join(', ')}; install them with: apt-get install ${packages}`);
  }
}
