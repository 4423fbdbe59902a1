import type { AddressInfo } from 'node:net';
import { Server, utils } from 'ssh2';

/**
 * A hostile SSH server for tests: it completes the key exchange (so the host key check passes) and
 * then never answers a single authentication request, as a wedged sshd or a stalled PAM module does.
 */
export interface SilentAuthSshd {
  host: string;
  port: number;
  /** The host key, `ssh-ed25519 AAAA...`, for a known_hosts line. */
  hostKeyLine: string;
  /** Authentication requests received and left unanswered. */
  authRequests(): number;
  /** Clients connected now. */
  connections(): number;
  stop(): Promise<void>;
}

export async function startSilentAuthSshd(host = '127.0.0.1'): Promise<SilentAuthSshd> {
  const key = utils.generateKeyPairSync('ed25519');
  const pub = utils.parseKey(key.public);
  if (pub instanceof Error) throw pub;
  const hostKeyLine = `${pub.type} ${pub.getPublicSSH().toString('base64')}`;
  let requests = 0;
  const clients = new Set<{ end(): unknown }>();
  const server = new Server({ hostKeys: [key.private] }, (client) => {
    clients.add(client);
    client.on('authentication', () => {
      // Left unanswered on purpose: neither accept() nor reject().
      requests++;
    });
    client.on('error', () => {});
    client.on('close', () => clients.delete(client));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host,
    port,
    hostKeyLine,
    authRequests: () => requests,
    connections: () => clients.size,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const c of clients) c.end();
        server.close(() => resolve());
      }),
  };
}
