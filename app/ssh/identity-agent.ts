import ssh2, { type BaseAgent, type ParsedKey, type SignCallback, type SigningRequestOptions } from 'ssh2';

/**
 * An ssh-agent offering only some of its keys: for IdentitiesOnly, those matching the configured
 * identity files (an agent holding many keys otherwise burns through sshd's MaxAuthTries (6) before
 * the right one is tried, and the server drops the connection); for PubkeyAcceptedAlgorithms, the
 * key types ssh would offer.
 */
class MatchingKeysAgent extends ssh2.BaseAgent<ParsedKey> {
  constructor(
    private readonly inner: BaseAgent,
    private readonly offered: (key: ParsedKey) => boolean,
  ) {
    super();
  }

  getIdentities(cb: (err: Error | undefined, keys?: ParsedKey[]) => void): void {
    this.inner.getIdentities((err, keys) => {
      if (err) return cb(err);
      const parsed = (keys ?? []).map((k) => ssh2.utils.parseKey(k as Buffer)).filter((k): k is ParsedKey => !(k instanceof Error));
      cb(undefined, parsed.filter(this.offered));
    });
  }

  sign(pubKey: ParsedKey, data: Buffer, options: SigningRequestOptions | SignCallback, cb?: SignCallback): void {
    if (typeof options === 'function') this.inner.sign(pubKey, data, options);
    else this.inner.sign(pubKey, data, options, cb);
  }
}

export function agentLimitedTo(agentPath: string, offered: (key: ParsedKey) => boolean): BaseAgent {
  return new MatchingKeysAgent(ssh2.createAgent(agentPath), offered);
}
