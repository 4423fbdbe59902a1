/**
 * Certificates for the simulated kubelet, made at start and kept in memory only: a self-signed serving
 * certificate (as a kubelet without --tls-cert-file makes for itself), and a client CA that signs client
 * certificates (as the cluster CA does for `kubectl` users and the API server). ECDSA P-256 throughout.
 */
import { webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 24 * 3600 * 1000;

export interface PemPair {
  certPem: string;
  /** PKCS#8 PEM; only ever held in memory or written 0600 by the caller. */
  keyPem: string;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`;
}

const validity = () => ({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 365 * DAY) });

/** A serving certificate signed by itself, for `nodeName`, localhost and 127.0.0.1 (what the kubelet puts in its own). */
export async function selfSignedServingCertificate(nodeName: string): Promise<PemPair> {
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${nodeName}@${Math.floor(Date.now() / 1000)}`,
    keys,
    signingAlgorithm: ALG,
    ...validity(),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: nodeName },
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
      ]),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** A CA that signs client certificates; `issue` makes one for a user (CN) and groups (O), as Kubernetes reads them. */
export interface ClientCa {
  certPem: string;
  issue(user: string, groups?: string[]): Promise<PemPair>;
}

export async function createClientCa(name = 'nodescope-sim-client-ca'): Promise<ClientCa> {
  const keys = await keyPair();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}`,
    keys,
    signingAlgorithm: ALG,
    ...validity(),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  return {
    certPem: ca.toString('pem'),
    async issue(user, groups = []) {
      const leaf = await keyPair();
      const subject = [...groups.map((g) => `O=${g}`), `CN=${user}`].join(', ');
      const cert = await x509.X509CertificateGenerator.create({
        subject,
        issuer: ca.subject,
        publicKey: leaf.publicKey,
        signingKey: keys.privateKey,
        signingAlgorithm: ALG,
        ...validity(),
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
        ],
      });
      return { certPem: cert.toString('pem'), keyPem: await keyPem(leaf.privateKey) };
    },
  };
}

/** `AB:CD:...`, the SHA-256 fingerprint as `openssl x509 -noout -fingerprint -sha256` prints it. */
export function certificateFingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}
