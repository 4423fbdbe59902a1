/**
 * GET requests to the kubelet's REST API through a node TCP channel: TLS to the kubelet on :10250
 * (plain HTTP on the read-only :10255), the serving certificate verified against a CA file or pinned by
 * its SHA-256 fingerprint like an SSH host key (asked on first use, refused when it changed, never
 * accepted silently), and the bearer token or client certificate sent. One channel per request. A kubelet
 * port that accepts and then hangs, or drips its answer, fails the request within the call timeout
 * (call-timeout.ts), and an answer larger than the limit is refused as such.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { DEFAULT_CALL_TIMEOUT_MS, watchAnswer } from '../kubelet/call-timeout';
import { KubeletError, NO_ANSWER_NEXT_STEP } from '../kubelet/kubelet-error';
import { CERTIFICATE_KIND } from '../core/certificate-kind';
import type { HostKeyAnswer, HostKeyQuestion } from '../ssh/ssh-prompter';
import { checkPin, rememberPin } from './kubelet-certificate-pins';
import type { NodeTcpChannel } from './node-tcp-channel';
import type { RestCredentials } from './rest-credentials';

export interface KubeletTrust {
  /** PEM of the CA that signs the serving certificate; without it the certificate is pinned. */
  ca?: string;
  /** Where the CA came from, for messages. */
  caFile?: string;
  pinsFile: string;
  /** The line name in pinsFile (pinName(host, port)). */
  pinName: string;
  /** Asks the user about an unknown certificate; absent or 'cannot-ask': refused with how to pin it. */
  prompt?: (question: HostKeyQuestion) => Promise<HostKeyAnswer>;
}

export { CERTIFICATE_KIND };

export interface RestTransportOptions {
  channel: NodeTcpChannel;
  /** The node as the user named it, for messages. */
  host: string;
  port: number;
  /** false: the read-only port, plain HTTP without credentials. */
  tls: boolean;
  trust: KubeletTrust;
  credentials: RestCredentials;
  /** Largest body accepted; default 512 MiB (as the Pods API's messages). */
  maxBodyBytes?: number;
  /** How long the TLS handshake, the answer's start, and each stretch of it may take (watchAnswer); default 30 s. */
  callTimeoutMs?: number;
  /** Told each request before it is sent (`GET https://127.0.0.1:10250/pods`), for -v: every request on the node is shown. */
  announce?: (line: string) => void;
}

/** The largest answer accepted by default: as the largest Pods API message. */
export const MAX_REST_BODY_BYTES = 512 * 1024 * 1024;

export interface RestResponse {
  status: number;
  body: Buffer;
}

/** An answer read as it comes (a followed log): the body ends when the kubelet ends it, or at close(). */
export interface RestStream {
  status: number;
  /** The length the kubelet announced, if it did. */
  contentLength?: number;
  body: AsyncIterable<Buffer>;
  close(): void;
}

export interface RestStreamOptions {
  signal?: AbortSignal;
  /** The answer may go quiet for as long as it likes once begun (a follow waits for lines). */
  quiet?: boolean;
  /** The consumer may hold a chunk for long (a terminal's pager): that time is not counted against the kubelet. */
  paced?: boolean;
}

/** The most of an answer other than 200 that stream() reads: it is an error message. */
const ERROR_BODY_BYTES = 64 * 1024;

export interface RestTransport {
  get(path: string): Promise<RestResponse>;
  /** GET whose 200 body is handed on as it arrives (never held whole); any other status with its body read. */
  stream(path: string, options?: RestStreamOptions): Promise<RestStream>;
  /** The serving certificate's fingerprint once a handshake was made. */
  fingerprint(): string | undefined;
}

const onNodeCheck = '`openssl x509 -noout -fingerprint -sha256 -in /var/lib/kubelet/pki/kubelet.crt` on the node (or the file its tlsCertFile names)';

const tlsError = (message: string, nextStep: string, cause?: unknown) => new KubeletError('TLS', message, nextStep, { cause });

const noAnswer = (o: RestTransportOptions, what: string, why: string) =>
  new KubeletError('NO_ANSWER', `The kubelet on ${o.host} port ${o.port} did not answer ${what}: ${why}`, NO_ANSWER_NEXT_STEP, { retryable: true });

const sizeText = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

function tooLarge(o: RestTransportOptions, path: string, max: number, size: string): KubeletError {
  return new KubeletError('TOO_LARGE', `The kubelet's answer to GET ${path} on ${o.host} is ${size}, larger than the ${sizeText(max)} Nodescope accepts; it was not read`,
    path === '/pods'
      ? 'The Pods API hands pods on one by one at any count: read this node with --api auto (or pods) on a kubelet with the PodsAPI feature gate. A --mask does not make /pods smaller (the kubelet sends every field).'
      : 'Report this with the kubelet version: this endpoint is never that large.');
}

function handshake(stream: Duplex, o: RestTransportOptions): Promise<TLSSocket> {
  const { credentials } = o;
  return new Promise((resolve, reject) => {
    const sock = tlsConnect({
      socket: stream,
      // Checked below, so that a failure can name the certificate and what to do.
      rejectUnauthorized: false,
      ...(o.trust.ca ? { ca: o.trust.ca } : {}),
      ...(credentials.cert ? { cert: credentials.cert, key: credentials.key } : {}),
    });
    const fail = (err: Error) => {
      sock.destroy();
      const cause = o.channel.lastError();
      if (cause) return reject(cause);
      // The link went (the SSH connection dropped, the kubelet restarted): worth trying again, not a TLS problem.
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') return reject(noAnswer(o, 'the TLS handshake', 'the connection closed before it ended'));
      reject(tlsError(`TLS handshake with the kubelet on ${o.host} port ${o.port} failed: ${err.message}`,
        o.port === 10255 ? 'Port 10255 is the read-only port: plain HTTP, use --read-only.' : 'Check that the port is the kubelet HTTPS port (10250) and that the client key matches its certificate.', err));
    };
    // A port that accepts and never answers the handshake must not hold the request.
    const timer = setTimeout(() => {
      sock.off('error', failed);
      stream.off('close', closed);
      sock.destroy();
      reject(noAnswer(o, 'the TLS handshake', `no answer within ${(o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS) / 1000} s`));
    }, o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
    const failed = (err: Error) => {
      clearTimeout(timer);
      stream.off('close', closed);
      fail(err);
    };
    // A channel closed without ending (an ssh2 channel whose connection dropped) is not seen by the TLS socket
    // over it, which would wait out the timeout.
    const closed = () => failed(Object.assign(new Error('the connection closed'), { code: 'ECONNRESET' }));
    sock.once('error', failed);
    stream.once('close', closed);
    sock.once('secureConnect', () => {
      clearTimeout(timer);
      sock.off('error', failed);
      stream.off('close', closed);
      resolve(sock);
    });
  });
}

export function createRestTransport(o: RestTransportOptions): RestTransport {
  const { trust } = o;
  let accepted: string | undefined;
  let deciding: Promise<void> | undefined;

  const decide = async (fingerprint: string): Promise<void> => {
    const pin = await checkPin(trust.pinsFile, trust.pinName, fingerprint);
    if (pin.status === 'known') return;
    if (pin.status === 'changed') {
      const { stored } = pin;
      throw tlsError(
        `The kubelet serving certificate for ${trust.pinName} has CHANGED: the kubelet offered ${fingerprint}, but ${stored.file}:${stored.line} has ${stored.fingerprint}. ` +
          'Someone may be intercepting the connection, or the kubelet made itself a new certificate (a reinstall, or its pki directory was cleared).',
        `Check the new fingerprint with ${onNodeCheck}; if it matches, delete line ${stored.line} of ${stored.file} (sed -i '${stored.line}d' ${stored.file}) and connect again.`,
      );
    }
    const answer = trust.prompt ? await trust.prompt({ host: trust.pinName.replace(/:\d+$/, ''), port: o.port, keyType: CERTIFICATE_KIND, fingerprint }) : 'cannot-ask';
    if (answer === 'remember') return rememberPin(trust.pinsFile, trust.pinName, fingerprint);
    if (answer === 'once') return;
    if (answer === 'cannot-ask') {
      throw tlsError(`The kubelet serving certificate ${fingerprint} for ${trust.pinName} is not pinned, and there is no one to ask whether to trust it (no terminal).`,
        `Compare it with ${onNodeCheck}, then add the line \`${trust.pinName} ${fingerprint}\` to ${trust.pinsFile}, or give the CA that signs it with --kubelet-ca.`);
    }
    throw tlsError(`The kubelet serving certificate ${fingerprint} for ${trust.pinName} was refused; not connecting.`, 'Connect again and accept it once you have compared its fingerprint with the one on the node.');
  };

  const verify = async (sock: TLSSocket): Promise<void> => {
    const fingerprint = sock.getPeerCertificate().fingerprint256;
    if (trust.ca) {
      if (sock.authorized) return void (accepted = fingerprint);
      throw tlsError(`The kubelet serving certificate ${fingerprint} on ${o.host} is not signed by the CA in ${trust.caFile ?? 'the given CA'}: ${String(sock.authorizationError)}`,
        'A kubelet without serverTLSBootstrap signs its serving certificate itself, so no cluster CA verifies it: leave out --kubelet-ca to pin the certificate instead, or give the CA that signed it.');
    }
    if (accepted === fingerprint) return;
    if (accepted !== undefined) {
      throw tlsError(`The kubelet serving certificate for ${trust.pinName} changed while connected: ${accepted} before, ${fingerprint} now.`,
        `Check the new fingerprint with ${onNodeCheck} and reconnect.`);
    }
    // Concurrent first requests (pods and stats at once) ask once.
    deciding ??= decide(fingerprint).finally(() => (deciding = undefined));
    await deciding;
    accepted = fingerprint;
  };

  const requestHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = { Accept: 'application/json, text/plain', Connection: 'close' };
    if (o.tls && o.credentials.token) headers.Authorization = `Bearer ${o.credentials.token}`;
    return headers;
  };

  /** The answer's headers within the timeout; then its body chunk by chunk, the socket closed when it ends or is left. */
  const streamExchange = (stream: Duplex, path: string, options: RestStreamOptions): Promise<RestStream> =>
    new Promise((resolve, reject) => {
      let settled = false;
      /** Why the body stopped coming, when the kubelet went quiet in the middle of it. */
      let late: KubeletError | undefined;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        answer.stop();
        req.destroy();
        reject(err);
      };
      let response: IncomingMessage | undefined;
      const answer = watchAnswer(o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, (why) => {
        if (!settled) return fail(noAnswer(o, `GET ${path}`, why));
        late = noAnswer(o, `GET ${path}`, why);
        // Ends the body's reading with why.
        response?.destroy(late);
        req.destroy();
      });
      const abort = () => req.destroy(new Error('cancelled'));
      const req = httpRequest({ createConnection: () => stream as never, host: '127.0.0.1', port: o.port, path, method: 'GET', headers: requestHeaders() }, (res: IncomingMessage) => {
        answer.begun();
        if (options.quiet) answer.stop();
        settled = true;
        response = res;
        const close = () => {
          answer.stop();
          options.signal?.removeEventListener('abort', abort);
          req.destroy();
        };
        const body = async function* (): AsyncGenerator<Buffer> {
          try {
            for await (const c of res as AsyncIterable<Buffer>) {
              // A quiet answer (a follow) is not watched once begun: resuming the watch would time its waits.
              if (options.quiet) {
                yield c;
                continue;
              }
              answer.received(c.length);
              if (!options.paced) {
                yield c;
                continue;
              }
              // The time a slow consumer holds a chunk is not the kubelet's.
              answer.pause();
              yield c;
              answer.resume();
            }
          } catch (err) {
            if (options.signal?.aborted) return;
            // Node's "aborted": the connection went before the answer's end (the SSH link dropped, the kubelet restarted).
            const cut = (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? noAnswer(o, `GET ${path} to its end`, 'the connection closed in the middle of the answer') : err;
            throw late ?? o.channel.lastError() ?? cut;
          } finally {
            close();
          }
        };
        const announced = Number(res.headers['content-length']);
        if (res.statusCode === 200) return resolve({ status: 200, ...(Number.isFinite(announced) ? { contentLength: announced } : {}), body: body(), close });
        // An error is a short text: read it (bounded) so the caller can say what the kubelet said.
        void (async () => {
          const parts: Buffer[] = [];
          let size = 0;
          for await (const c of body()) {
            parts.push(c);
            size += c.length;
            // Enough to say what went wrong: the rest is not read (the socket is closed).
            if (size >= ERROR_BODY_BYTES) break;
          }
          return Buffer.concat(parts).subarray(0, ERROR_BODY_BYTES);
        })().then(
          (b) => resolve({ status: res.statusCode ?? 0, body: (async function* () { yield b; })(), close }),
          (err: Error) => reject(err),
        );
      });
      if (options.signal?.aborted) abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => {
        const why = o.channel.lastError() ?? (err.code === 'ECONNRESET' && !settled ? noAnswer(o, `GET ${path}`, 'it closed the connection without an answer') : err);
        // Not from inside the emit: Node emits a hang-up while it still holds the response parser it frees next, and
        // destroying a TLS socket whose SSH channel is already gone closes it at once, freeing that parser first.
        // Freed twice, one parser would serve two connections (a crash of the whole process later).
        queueMicrotask(() => fail(why));
      });
      req.end();
    });

  /** The TLS connection (checked) or the plain one, for one request. */
  const connect = async (): Promise<Duplex> => {
    const stream = await o.channel.open();
    if (!o.tls) return stream;
    const sock = await handshake(stream, o);
    try {
      await verify(sock);
    } catch (err) {
      sock.destroy();
      throw err;
    }
    return sock;
  };

  const announce = (path: string) => o.announce?.(`GET ${o.tls ? 'https' : 'http'}://127.0.0.1:${o.port}${path} on the node`);

  const stream = async (path: string, options: RestStreamOptions = {}): Promise<RestStream> => {
    announce(path);
    const sock = await connect();
    try {
      return await streamExchange(sock, path, options);
    } catch (err) {
      sock.destroy();
      throw err;
    }
  };

  return {
    stream,
    async get(path) {
      // The whole answer, up to the limit: what every endpoint but a followed log is read as.
      const answer = await stream(path);
      const max = o.maxBodyBytes ?? MAX_REST_BODY_BYTES;
      try {
        if (answer.contentLength !== undefined && answer.contentLength > max) throw tooLarge(o, path, max, `${answer.contentLength} bytes`);
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const c of answer.body) {
          size += c.length;
          if (size > max) throw tooLarge(o, path, max, `more than ${sizeText(max)}`);
          chunks.push(c);
        }
        return { status: answer.status, body: Buffer.concat(chunks) };
      } finally {
        answer.close();
      }
    },
    fingerprint: () => accepted,
  };
}
