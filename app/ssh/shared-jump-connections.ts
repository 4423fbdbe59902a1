import type { Client } from 'ssh2';
import type { OpenSshOptions, SshHop } from './ssh-connection';
import { cancelled, classifyConnectError, SshError } from './ssh-errors';
import { handedOnPrompter, unlessAborted, type Asker } from './handed-on-prompter';

/**
 * One SSH connection per jump host chain, shared by every node behind it, as OpenSSH's ControlMaster
 * shares one: a hundred nodes behind one bastion make one login there, and its host key or passphrase
 * question is asked once. The connection is reference-counted and closed when its last user releases
 * it. When it drops, every connection through it closes too; their re-dials meet in one new dial.
 * A chain of several jump hosts shares each prefix the same way (bastion, then bastion→inner).
 */

export interface JumpLease {
  /** The client logged in on the last jump host of the chain. */
  client: Client;
  hop: SshHop;
  /** Why the shared connection went away, once it has; null while it is up. */
  cause(): SshError | null;
  /** Settles when the shared connection closes, whoever closed it. */
  closed: Promise<void>;
  /** This user is done; the last release closes the connection. Idempotent. */
  release(): void;
}

export interface JumpConnectionPool {
  /**
   * The shared connection to the last hop of `chain` (outermost first), dialled when nobody holds one.
   * A dial that several callers wait for asks its questions through the first caller's prompter still
   * there: a caller that gives up (its signal aborts) hands the question on to the next, so one node's
   * removal never fails the others. A login that failed for a reason the user must fix (host key,
   * authentication) fails every later acquire the same way, without asking again, until retry().
   */
  acquire(chain: SshHop[], options: OpenSshOptions): Promise<JumpLease>;
  /** Forgets failures the user has fixed, so the next acquire dials again. */
  retry(): void;
  /** Live shared connections, by chain (for status displays and tests). */
  size(): number;
}

interface Shared {
  client: Client;
  hop: SshHop;
  cause(): SshError | null;
  closed: Promise<void>;
}

interface Entry {
  key: string;
  users: number;
  /** Who may answer the dial's questions, first comer first; each is told as the dial moves on. */
  askers: (Asker & Pick<OpenSshOptions, 'onProgress'>)[];
  /** The dial in progress, or the live connection's promise; unset once it closed. */
  ready?: Promise<Shared>;
  /** Aborts the dial when every user has gone. */
  abort: AbortController;
  /** Ends the live connection (and releases what it rides on). */
  end(): void;
}

/** Everything that makes two hops the same login; only identical hops share a connection. */
function hopKey(hop: SshHop): string {
  return JSON.stringify([hop.user, hop.host, hop.port, hop.hostKeyAlias, hop.identityFiles, hop.identitiesOnly, hop.identityAgent,
    hop.knownHostsFiles, hop.strictHostKeyChecking, hop.batchMode]);
}

/** Failures only the user can fix: remembered, so a hundred nodes do not ask a hundred times. */
const needsTheUser = (err: SshError) => !err.retryable && err.code !== 'CLOSED';

export function createJumpConnectionPool(): JumpConnectionPool {
  const entries = new Map<string, Entry>();
  const fatal = new Map<string, SshError>();

  const release = (entry: Entry, asker: Asker) => {
    entry.askers = entry.askers.filter((a) => a !== asker);
    entry.users--;
    if (entry.users > 0) return;
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    entry.abort.abort();
    entry.end();
  };

  const dial = async (entry: Entry, chain: SshHop[], options: OpenSshOptions): Promise<Shared> => {
    const hop = chain[chain.length - 1]!;
    // ssh2 is loaded by the first SSH connection: a UI showing only local sockets never needs it (~14 MiB resident).
    const { connectHop, forwardThrough } = await import('./ssh-connection');
    const dialOptions: OpenSshOptions = {
      ...options,
      prompter: handedOnPrompter(() => entry.askers, () => cancelled(hop)),
      signal: entry.abort.signal,
      // Every node waiting for this login moves on with it, so none hands its slot in the open limit on for it.
      onProgress: () => {
        for (const a of entry.askers) a.onProgress?.();
      },
    };
    const parent = chain.length > 1 ? await acquire(chain.slice(0, -1), dialOptions) : undefined;
    let result;
    try {
      const sock = parent ? await forwardThrough(parent.client, parent.hop, hop, dialOptions) : undefined;
      result = await connectHop(hop, sock, dialOptions);
    } catch (err) {
      parent?.release();
      throw err;
    }
    const { client } = result;
    let ended = false;
    entry.end = () => {
      if (ended) return;
      ended = true;
      client.end();
      parent?.release();
    };
    // Released while the last step of the dial ran: nobody wants it any more.
    if (entry.users <= 0) entry.end();
    const closed = new Promise<void>((resolve) => {
      client.once('close', () => {
        // The next acquire dials afresh; the users of this one see `closed` and re-dial through it.
        if (entries.get(entry.key) === entry) entries.delete(entry.key);
        entry.end();
        resolve();
      });
    });
    const cause = () =>
      result.cause() ?? parent?.cause() ?? new SshError('CONNECTION_LOST', `The shared connection to jump host ${hop.host}:${hop.port} closed`,
        'The jump host or the network dropped it; the nodes behind it re-dial through a new one.');
    return { client, hop, cause: () => (ended ? cause() : null), closed };
  };

  const acquire = async (chain: SshHop[], options: OpenSshOptions): Promise<JumpLease> => {
    const hop = chain[chain.length - 1];
    if (!hop) throw new Error('acquire needs at least one jump host');
    const key = chain.map(hopKey).join(' -> ');
    const known = fatal.get(key);
    if (known) throw known;
    let entry = entries.get(key);
    if (!entry) {
      entry = { key, users: 0, askers: [], abort: new AbortController(), end: () => {} };
      entries.set(key, entry);
    }
    const mine = entry;
    const asker = { prompter: options.prompter, signal: options.signal, onProgress: options.onProgress };
    mine.users++;
    mine.askers.push(asker);
    const ready = (mine.ready ??= dial(mine, chain, options));
    ready.catch((err: unknown) => {
      // A failed dial is forgotten at once: the next acquire dials again, unless the user must act first.
      if (mine.ready === ready) mine.ready = undefined;
      if (entries.get(key) === mine) entries.delete(key);
      const e = classifyConnectError(err, hop);
      if (needsTheUser(e)) fatal.set(key, e);
    });
    let shared: Shared;
    try {
      shared = await unlessAborted(ready, options.signal, () => cancelled(hop));
    } catch (err) {
      release(mine, asker);
      throw err;
    }
    let released = false;
    return {
      client: shared.client,
      hop: shared.hop,
      cause: shared.cause,
      closed: shared.closed,
      release: () => {
        if (released) return;
        released = true;
        release(mine, asker);
      },
    };
  };

  return {
    acquire,
    retry: () => fatal.clear(),
    size: () => entries.size,
  };
}
