import ssh2, { type BaseAgent, type ParsedKey, type SignCallback, type SigningRequestOptions } from 'ssh2';

/**
 * IdentitiesOnly for ssh-agent: offer only the agent keys that match the configured identity
 * files. An agent holding many keys otherwise burns through sshd's MaxAuthTries (6) before the
 * right one is tried, and the server drops the connection.
 */
class MatchingKeysAgent extends ssh2.BaseAgent<ParsedKey> {
  constructor(
    private readonly inner: BaseAgent,
    private readonly allowed: Buffer[],
  ) {
    super();
  }

  getIdentities(cb: (err: Error | undefined, keys?: ParsedKey[]) => void): void {
    this.inner.getIdentities((err, keys) => {
      if (err) return cb(err);
      const parsed = (keys ?? []).map((k) => ssh2.utils.parseKey(k as Buffer)).filter((k): k is ParsedKey => !(k instanceof Error));
      cb(undefined, parsed.filter((k) => this.allowed.some((a) => a.equals(k.getPublicSSH()))));
    });
  }

  sign(pubKey: ParsedKey, data: Buffer, options: SigningRequestOptions | SignCallback, cb?: SignCallback): void {
    if (typeof options === 'function') this.inner.sign(pubKey, data, options);
    else this.inner.sign(pubKey, data, options, cb);
  }
}

export function agentLimitedTo(agentPath: string, publicKeys: Buffer[]): BaseAgent {
  return new MatchingKeysAgent(ssh2.createAgent(agentPath), publicKeys);
}
